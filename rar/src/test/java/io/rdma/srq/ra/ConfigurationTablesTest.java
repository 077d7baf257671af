package io.rdma.srq.ra;

import io.rdma.srq.ra.support.SrqProperty.Side;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md's activation and connection-definition property tables are the
 * {@link io.rdma.srq.ra.support.SrqProperty} table: every property, with its type, range, default
 * and meaning, row for row (regenerate them with {@link ConfigurationTables#main}).
 */
class ConfigurationTablesTest {

    @ParameterizedTest
    @EnumSource(Side.class)
    void theDocumentedTableIsTheDeclaredOne(Side side) throws IOException {
        String doc = Files.readString(ConfigurationTables.root().resolve(ConfigurationTables.DOC));
        int begin = doc.indexOf(ConfigurationTables.begin(side));
        int end = doc.indexOf(ConfigurationTables.end(side));
        assertTrue(begin >= 0 && end > begin, ConfigurationTables.DOC + " has no " + side
                + " table between the markers; ConfigurationTables.main prints it:\n" + ConfigurationTables.section(side));
        assertEquals(ConfigurationTables.section(side), doc.substring(begin, end + ConfigurationTables.end(side).length() + 1),
                ConfigurationTables.DOC + "'s " + side + " table differs from SrqProperty (ConfigurationTables.main prints it)");
    }

    @org.junit.jupiter.api.Test
    void theDocumentedServerWideSettingsAreTheDeclaredKnobs() throws IOException {
        String doc = Files.readString(ConfigurationTables.root().resolve(ConfigurationTables.DOC));
        int begin = doc.indexOf(ConfigurationTables.KNOBS_BEGIN);
        int end = doc.indexOf(ConfigurationTables.KNOBS_END);
        assertTrue(begin >= 0 && end > begin, ConfigurationTables.DOC + " has no server-wide settings table between the "
                + "markers; ConfigurationTables.main prints it:\n" + ConfigurationTables.knobs());
        assertEquals(ConfigurationTables.knobs(), doc.substring(begin, end + ConfigurationTables.KNOBS_END.length() + 1),
                ConfigurationTables.DOC + "'s server-wide settings differ from SystemProperties (ConfigurationTables.main prints them)");
    }
}
