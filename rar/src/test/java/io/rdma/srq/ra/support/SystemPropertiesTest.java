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

    @Test
    void aKnobWithABadValueFallsBackToItsDefaultWhereNothingCanStop() {
        SystemProperties.Knob knob = new SystemProperties.Knob(NAME, 7, 0, 10, "a test knob");
        System.setProperty(NAME, "two");
        assertEquals(7, knob.readOrDefault());
        assertThrows(IllegalArgumentException.class, knob::read);
    }

    @Test
    void checkNamesTheFirstBadKnob() {
        withProperty("srq.call.spinNanos", "20us", () -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, SystemProperties::check);
            assertEquals("srq.call.spinNanos must be an integer in 0..1000000000, got '20us'", e.getMessage());
        });
    }

    @Test
    void theResourceAdapterDoesNotStartWithABadKnob() {
        withProperty("srq.spinners", "two", () -> {
            io.rdma.srq.ra.SrqResourceAdapter ra = new io.rdma.srq.ra.SrqResourceAdapter();
            jakarta.resource.spi.ResourceAdapterInternalException e = assertThrows(
                    jakarta.resource.spi.ResourceAdapterInternalException.class,
                    () -> ra.start(new io.rdma.srq.ra.testing.TestBootstrapContext()));
            assertEquals("system property srq.spinners must be an integer in 0..1024, got 'two'", e.getMessage());
        });
    }

    /** Runs {@code body} with a system property set, and puts back what was there. */
    private static void withProperty(String name, String value, Runnable body) {
        String old = System.getProperty(name);
        System.setProperty(name, value);
        try {
            body.run();
        } finally {
            if (old == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, old);
            }
        }
    }

    @Test
    void aValueConfiguredByTheSubsystemWinsOverThePropertyUntilCleared() {
        SystemProperties.Knob knob = new SystemProperties.Knob(NAME, 7, 0, 10, "a test knob");
        System.setProperty(NAME, "3");
        try {
            SystemProperties.configure(knob, 9L);
            assertEquals(9, knob.read(), "the subsystem's value");
            SystemProperties.configure(knob, null);
            assertEquals(3, knob.read(), "cleared: the system property again");
        } finally {
            SystemProperties.configure(knob, null);
        }
    }

    @Test
    void aConfiguredValueOutsideTheRangeIsRefusedNamingTheKnob() {
        SystemProperties.Knob knob = new SystemProperties.Knob(NAME, 7, 0, 10, "a test knob");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SystemProperties.configure(knob, 11L));
        assertEquals(NAME + " must be in 0..10, got 11", e.getMessage());
        assertEquals(7, knob.read(), "nothing configured");
    }
}
