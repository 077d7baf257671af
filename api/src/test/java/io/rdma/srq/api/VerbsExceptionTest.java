package io.rdma.srq.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsExceptionTest {

    @Test
    void messageNamesOperationErrnoAndDetail() {
        VerbsException e = new VerbsException("ibv_modify_srq", 22, "srq_limit 4096 > max_wr 2047");
        assertEquals("ibv_modify_srq: EINVAL (22, Invalid argument): srq_limit 4096 > max_wr 2047", e.getMessage());
        assertEquals("EINVAL", e.errnoName());
        assertTrue(e.is(Errno.EINVAL));
        assertFalse(e.is(Errno.ENOMEM));
    }

    @Test
    void unknownErrnoValuesAreKeptNotHidden() {
        VerbsException e = new VerbsException("ibv_post_srq_recv", 999, null);
        assertEquals("ibv_post_srq_recv: errno 999", e.getMessage());
        assertEquals("errno 999", e.errnoName());
        assertTrue(e.errnoConstant().isEmpty());
    }

    @Test
    void errnoLookupByValue() {
        assertEquals(Errno.EBUSY, Errno.of(16).orElseThrow());
        assertEquals(Errno.EOPNOTSUPP, Errno.of(95).orElseThrow());
        assertTrue(Errno.of(0).isEmpty());
        assertTrue(Errno.of(-22).isEmpty());
    }

    @Test
    void srqAttributesRefuseNegativeValuesNamingThem() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new SrqAttributes(-1, 1, 0));
        assertTrue(e.getMessage().contains("max_wr=-1"), e.getMessage());
    }

    @Test
    void capabilityBitsDecodeAsTheHeaderDefinesThem() {
        assertEquals(1 << 13, DeviceCapability.SRQ_RESIZE.mask());
        // rxe0's device_cap_flags as ibv_devinfo -v prints them
        assertEquals(java.util.EnumSet.of(DeviceCapability.BAD_PKEY_CNTR, DeviceCapability.BAD_QKEY_CNTR,
                DeviceCapability.AUTO_PATH_MIG, DeviceCapability.CHANGE_PHY_PORT, DeviceCapability.UD_AV_PORT_ENFORCE,
                DeviceCapability.PORT_ACTIVE_EVENT, DeviceCapability.SYS_IMAGE_GUID, DeviceCapability.RC_RNR_NAK_GEN,
                DeviceCapability.SRQ_RESIZE, DeviceCapability.MEM_WINDOW, DeviceCapability.MEM_MGT_EXTENSIONS,
                DeviceCapability.MEM_WINDOW_TYPE_2B), DeviceCapability.decode(0x01223c76L));
        assertEquals(0b111111, EfaCapability.decode(0xFFL).stream().mapToInt(EfaCapability::mask).sum());
        assertEquals(0xC0L, EfaCapability.unknownBits(0xFFL));
    }
}
