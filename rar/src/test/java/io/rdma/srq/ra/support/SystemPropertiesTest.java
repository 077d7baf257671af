package io.rdma.srq.ra.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SystemPropertiesTest {
    private static final String NAME = "srq.test.systemPropertiesTest";

    @AfterEach
    void clear() {
        System.clearProperty(NAME);
    }

    @Test
    void unsetOrBlankGivesTheDefault() {
        assertEquals(7, SystemProperties.longIn(NAME, 7, 0, 10));
        System.setProperty(NAME, "  ");
        assertEquals(7, SystemProperties.longIn(NAME, 7, 0, 10));
    }

    @Test
    void aValueInRangeIsRead() {
        System.setProperty(NAME, " 10 ");
        assertEquals(10, SystemProperties.longIn(NAME, 7, 0, 10));
    }

    @Test
    void garbageNamesThePropertyAndTheRange() {
        for (String bad : new String[] {"20us", "1e3", "٣", "0x10"}) {
            System.setProperty(NAME, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SystemProperties.longIn(NAME, 7, 0, 10));
            assertEquals(NAME + " must be an integer in 0..10, got '" + bad + "'", e.getMessage());
        }
    }

    @Test
    void outOfRangeNamesThePropertyAndTheRange() {
        System.setProperty(NAME, "-1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SystemProperties.longIn(NAME, 7, 0, 10));
        assertEquals(NAME + " must be in 0..10, got -1", e.getMessage());
    }
}
