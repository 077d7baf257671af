package io.rdma.srq.ra.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where one activation serves a service: the service's name, the verbs provider its listener runs on
 * ({@code soft}, {@code ibverbs}, {@code fabric}: a caller reaches it only over the same) and the
 * listener's address. Published in a {@link ServiceDirectory} as one text key,
 * {@code rdma-srq:<service>|<transport>|<address literal>|<port>} (a String, which WildFly's
 * ProtoStream-marshalled registrar cache carries without a schema of ours).
 *
 * @param service   the service name ({@link #isName})
 * @param transport the listener's verbs provider name
 * @param address   the listener's address and port, an IP literal (never the wildcard)
 */
public record ServiceEndpoint(String service, String transport, InetSocketAddress address) {
    /** What a service name may be: letters, digits, '.', '-', '_'; 1 to 128 of them. */
    public static final String NAME_RULE = "1 to 128 letters, digits, '.', '-' or '_'";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private static final String PREFIX = "rdma-srq:";

    /**
     * @throws IllegalArgumentException a bad name, a wildcard or unresolved address
     */
    public ServiceEndpoint {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(address, "address");
        if (!isName(service)) {
            throw new IllegalArgumentException("service name '" + service + "': must be " + NAME_RULE);
        }
        if (address.isUnresolved() || address.getAddress().isAnyLocalAddress()) {
            throw new IllegalArgumentException("a service endpoint needs a reachable address, not " + address);
        }
    }

    /**
     * @param name a candidate service name
     * @return whether it is one ({@value #NAME_RULE})
     */
    public static boolean isName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** {@return the key published for it} */
    public String key() {
        return PREFIX + service + '|' + transport + '|' + address.getAddress().getHostAddress() + '|' + address.getPort();
    }

    /**
     * @param key a published key (any object: the registrar holds other services' keys too)
     * @return the endpoint, or empty for a key that is not one of ours or not well formed
     */
    public static Optional<ServiceEndpoint> parse(Object key) {
        if (!(key instanceof String s) || !s.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = s.substring(PREFIX.length()).split("\\|", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        try {
            // an IP literal: getByName does no lookup for one
            InetAddress ip = InetAddress.getByName(parts[2]);
            return Optional.of(new ServiceEndpoint(parts[0], parts[1], new InetSocketAddress(ip, Integer.parseInt(parts[3]))));
        } catch (java.io.IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return service + " at " + address.getAddress().getHostAddress() + ':' + address.getPort() + " (" + transport + ')';
    }
}
