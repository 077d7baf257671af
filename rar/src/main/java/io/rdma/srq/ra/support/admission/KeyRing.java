package io.rdma.srq.ra.support.admission;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resource adapter's keys by alias: its {@code authKeys} property, {@code alias=base64key}
 * entries separated by commas or white space (RFC 4648 base64, at least {@value AuthKey#MIN_BYTES}
 * bytes each). In WildFly the value is an expression the server resolves — {@code ${ENC::resolver:...}}
 * of the Elytron expression resolver over a credential store — so no key sits in plain text in
 * standalone.xml. An activation or connection definition names the keys it uses by alias.
 */
public final class KeyRing {
    /** No keys. */
    public static final KeyRing EMPTY = new KeyRing(Map.of());

    private final Map<String, AuthKey> byAlias;

    private KeyRing(Map<String, AuthKey> byAlias) {
        this.byAlias = byAlias;
    }

    /**
     * Parses {@code authKeys}.
     *
     * @param text the property's value, blank for none
     * @return the keys
     * @throws IllegalArgumentException naming the alias of a malformed or short entry (never its value)
     */
    public static KeyRing parse(String text) {
        Map<String, AuthKey> keys = new LinkedHashMap<>();
        if (text != null) {
            for (String entry : text.trim().split("[,\\s]+")) {
                if (entry.isEmpty()) {
                    continue;
                }
                int eq = entry.indexOf('=');
                String alias = eq < 0 ? "" : entry.substring(0, eq);
                if (!alias.matches("[A-Za-z0-9._-]{1,64}")) {
                    throw new IllegalArgumentException("each entry must be alias=base64key with an alias of 1..64 "
                            + "letters, digits, '.', '_' or '-'" + (eq < 0 ? " (an entry has no '=')" : ", got alias '"
                            + alias + "'"));
                }
                byte[] bytes;
                try {
                    bytes = Base64.getDecoder().decode(entry.substring(eq + 1));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("key '" + alias + "' is not base64 (RFC 4648)");
                }
                if (keys.put(alias, new AuthKey(alias, bytes)) != null) {
                    throw new IllegalArgumentException("key '" + alias + "' is given twice");
                }
            }
        }
        return new KeyRing(Map.copyOf(keys));
    }

    /**
     * Selects keys by alias.
     *
     * @param aliases comma- or space-separated aliases; the first is the one our connects present,
     *                all are accepted (key rotation); blank for none
     * @return the keys, in that order; empty for none
     * @throws IllegalArgumentException naming an unknown alias and the known ones
     */
    public List<AuthKey> select(String aliases) {
        List<AuthKey> out = new ArrayList<>();
        if (aliases == null) {
            return out;
        }
        for (String a : aliases.trim().split("[,\\s]+")) {
            if (a.isEmpty()) {
                continue;
            }
            AuthKey k = byAlias.get(a);
            if (k == null) {
                throw new IllegalArgumentException("no key '" + a + "' in the resource adapter's authKeys (aliases: "
                        + (byAlias.isEmpty() ? "none configured" : String.join(", ", new java.util.TreeSet<>(byAlias.keySet())))
                        + ")");
            }
            out.add(k);
        }
        return out;
    }

    /** Where an activation or connection definition finds the resource adapter's keys. */
    @FunctionalInterface
    public interface Source {
        /**
         * {@return the resource adapter's keys}
         *
         * @throws IllegalArgumentException when its authKeys property is malformed
         */
        KeyRing keyRing();
    }
}
