package io.rdma.srq.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The attribute builders set each field by its name and leave the rest 0. */
class AttributesBuilderTest {

    @Test
    void deviceAttributesBuilderSetsFieldsByName() {
        DeviceAttributes a = DeviceAttributes.builder().fwVersion("1.2").nodeGuid(7).maxSrqWr(1024).maxSrqSge(4)
                .physPortCnt(1).deviceCapFlags(DeviceCapability.SRQ_RESIZE.mask()).build();
        assertEquals("1.2", a.fwVersion());
        assertEquals(7, a.nodeGuid());
        assertEquals(1024, a.maxSrqWr());
        assertEquals(4, a.maxSrqSge());
        assertEquals(1, a.physPortCnt());
        assertEquals(0, a.maxQp(), "unset fields are 0");
        assertEquals(true, a.has(DeviceCapability.SRQ_RESIZE));
        assertEquals("", DeviceAttributes.builder().build().fwVersion());
    }

    @Test
    void portAndEfaBuildersSetFieldsByName() {
        PortAttributes p = PortAttributes.builder().state(PortAttributes.STATE_ACTIVE).activeMtu(3).gidTblLen(16)
                .linkLayer(2).build();
        assertEquals(true, p.isActive());
        assertEquals(1024, PortAttributes.mtuBytes(p.activeMtu()));
        assertEquals(16, p.gidTblLen());
        assertEquals(2, p.linkLayer());
        assertEquals(0, p.lid());
        EfaDeviceAttributes e = EfaDeviceAttributes.builder().maxSqWr(4096).maxRqSge(3).deviceCaps(1).build();
        assertEquals(4096, e.maxSqWr());
        assertEquals(3, e.maxRqSge());
        assertEquals(1, e.deviceCaps());
        assertEquals(0, e.maxRqWr());
        assertEquals(e, EfaDeviceAttributes.builder().maxSqWr(4096).maxRqSge(3).deviceCaps(1).build());
        assertNotEquals(e, EfaDeviceAttributes.builder().maxSqWr(4096).maxRqSge(3).build());
    }
}
