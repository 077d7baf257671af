package io.rdma.srq.ra.management;

import io.rdma.srq.api.DeviceAttributes;
import io.rdma.srq.api.PortAttributes;
import io.rdma.srq.api.VerbsException;
import io.rdma.srq.ra.support.DeviceSelection;
import io.rdma.srq.verbs.Context;

import java.util.ArrayList;
import java.util.List;

/**
 * A device at a glance: which provider and device, the state of its port(s)
 * (ibv_query_port(3) {@code state}) and whether it is healthy.
 *
 * @param provider the verbs provider's name (ibverbs, soft)
 * @param device   the device name (mlx5_0, rxe0, soft_rxe0)
 * @param ports    the port state as text, e.g. {@code 1:ACTIVE} (several ports: {@code 1:ACTIVE 2:DOWN}),
 *                 or {@code unavailable: <reason>} when the device cannot be queried
 * @param healthy  whether it runs and a port it uses is ACTIVE (IBV_PORT_ACTIVE)
 */
public record DeviceState(String provider, String device, String ports, boolean healthy) {

    /**
     * Queries an open device.
     *
     * @param context the open device context
     * @param port    the port used, 1..phys_port_cnt; 0 for every port (an rdma_cm listener on a
     *                wildcard address listens on all): healthy when any is ACTIVE
     * @param running false once its user is stopping: never healthy then
     * @return the state; {@code unavailable: …} with the errno when ibv_query_device/ibv_query_port fail
     *         or the context is closed
     */
    public static DeviceState of(Context context, int port, boolean running) {
        String provider = context.providerName();
        String device = context.deviceName();
        try {
            DeviceAttributes d = context.queryDevice();
            List<String> states = new ArrayList<>();
            boolean active = false;
            int first = port == 0 ? 1 : port;
            int last = port == 0 ? d.physPortCnt() : port;
            for (int p = first; p <= last; p++) {
                PortAttributes a = context.queryPort(p);
                states.add(p + ":" + stateName(a.state()));
                active |= a.state() == PortAttributes.STATE_ACTIVE;
            }
            return new DeviceState(provider, device, String.join(" ", states), running && active);
        } catch (RuntimeException e) {
            return new DeviceState(provider, device, "unavailable: " + e.getMessage(), false);
        }
    }

    /**
     * Opens the selected device, queries it and closes it again (a connection definition whose pool
     * may be empty).
     *
     * @param selection which device
     * @param port      the port used, 1..phys_port_cnt
     * @return the state; {@code unavailable: …} with the errno when the device cannot be opened (ENODEV …)
     */
    public static DeviceState probe(DeviceSelection selection, int port) {
        try (Context c = selection.open(null)) {
            return of(c, port, true);
        } catch (RuntimeException e) {
            return new DeviceState(selection.provider().verbsName(), selection.device(),
                    "unavailable: " + e.getMessage(), false);
        }
    }

    /**
     * @param provider the configured provider text
     * @param device   the configured device text
     * @param why      why nothing can be queried (a bad property)
     * @return an unhealthy state saying why
     */
    public static DeviceState unavailable(String provider, String device, String why) {
        return new DeviceState(provider, device, "unavailable: " + why, false);
    }

    /**
     * @param state ibv_port_state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER (ibv_query_port(3))
     * @return its name without the IBV_PORT_ prefix
     */
    static String stateName(int state) {
        return switch (state) {
            case 1 -> "DOWN";
            case 2 -> "INIT";
            case 3 -> "ARMED";
            case PortAttributes.STATE_ACTIVE -> "ACTIVE";
            case 5 -> "ACTIVE_DEFER";
            default -> "NOP(" + state + ")";
        };
    }
}
