package io.rdma.srq.ra;

import io.rdma.srq.ra.support.SrqProperty;
import io.rdma.srq.ra.support.SrqProperty.Side;
import io.rdma.srq.ra.support.SystemProperties;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * docs/configuration.md's property tables, written from {@link SrqProperty} and {@link SystemProperties}. Run {@link #main} to
 * print them after changing the table, and paste each between its markers.
 */
final class ConfigurationTables {
    /** The file the tables live in, relative to the project root. */
    static final String DOC = "docs/configuration.md";

    private ConfigurationTables() {
    }

    /** @param side a bean @return the marker line the table of that side follows */
    static String begin(Side side) {
        return "<!-- " + side.name().toLowerCase(java.util.Locale.ROOT) + " properties: generated from SrqProperty "
                + "(ConfigurationTables), checked by ConfigurationTablesTest -->";
    }

    /** @param side a bean @return the marker line after its table */
    static String end(Side side) {
        return "<!-- end of " + side.name().toLowerCase(java.util.Locale.ROOT) + " properties -->";
    }

    /** @param side a bean @return the markdown table of its properties, in declaration order */
    static String markdown(Side side) {
        return "| property | type | range | default | meaning |\n|---|---|---|---|---|\n"
                + SrqProperty.of(side).stream().map(p -> "| `" + p.property() + "` | " + p.kind().text()
                        + (p.unit().isEmpty() ? "" : ", " + p.unit()) + " | " + p.range() + " | "
                        + (p.defaultFor(side).isEmpty() ? "empty" : "`" + p.defaultFor(side) + "`") + " | "
                        + p.doc() + " |\n").collect(Collectors.joining());
    }

    /** The marker line the server-wide settings' table follows. */
    static final String KNOBS_BEGIN = "<!-- server-wide settings: generated from SystemProperties (ConfigurationTables), checked by "
            + "ConfigurationTablesTest -->";
    /** The marker line after it. */
    static final String KNOBS_END = "<!-- end of server-wide settings -->";

    /** @return the table of the server-wide settings with its markers: system property and subsystem attribute */
    static String knobs() {
        return KNOBS_BEGIN + "\n| system property | `/subsystem=rdma-srq` attribute | range | default | meaning |\n|---|---|---|---|---|\n"
                + SystemProperties.ALL.stream().map(k -> "| `" + k.name() + "` | `" + k.attributeName() + "` | " + k.min() + ".."
                        + k.max() + " | " + k.defaultText() + " | " + k.description() + " |\n").collect(Collectors.joining())
                + KNOBS_END + "\n";
    }

    /** @param side a bean @return its table with the markers around it, as the doc holds it */
    static String section(Side side) {
        return begin(side) + "\n" + markdown(side) + end(side) + "\n";
    }

    /** @return the project root (the tests run in rar/) */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        return Files.exists(dir.resolve(DOC)) ? dir : dir.getParent();
    }

    /** Prints both tables with their markers. @param args none */
    public static void main(String[] args) {
        for (Side side : Side.values()) {
            System.out.println(section(side));
        }
        System.out.println(knobs());
    }
}
