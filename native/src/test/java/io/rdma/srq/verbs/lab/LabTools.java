package io.rdma.srq.verbs.lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the lab tests of every module share: the lab's device and address, rdma-core's and perftest's tools. */
public final class LabTools {
    /** The skip reason of a test that needs the lab. */
    public static final String HOW = "needs the rxe lab with rdmacm-utils: run it-tests/lab/run-lab.sh "
            + "(-Dverbs.provider=ibverbs -Dverbs.device=rxe0 -Dverbs.listenAddress=10.77.0.1)";

    private LabTools() {
    }

    /**
     * The lab's device and the address of its netdev, from {@code -Dverbs.provider=ibverbs
     * -Dverbs.device=rxe0 -Dverbs.listenAddress=10.77.0.1}; the test is skipped with {@link #HOW}
     * elsewhere.
     *
     * @param device  the device name, e.g. {@code rxe0}
     * @param address the IP address of its netdev, e.g. {@code 10.77.0.1}
     */
    public record Target(String device, String address) {
    }

    /** @return the lab's target; skips the test (with {@link #HOW}) outside the lab */
    public static Target target() {
        assumeTrue("ibverbs".equals(System.getProperty("verbs.provider")), HOW);
        String device = System.getProperty("verbs.device");
        String address = System.getProperty("verbs.listenAddress");
        assumeTrue(device != null && address != null, HOW);
        return new Target(device, address);
    }

    /**
     * @param name a program on the PATH, e.g. {@code ucmatose}
     * @param how  how to get the lab, for the skip reason
     * @return its path; the test is skipped (with the reason) when it is not installed
     */
    public static String tool(String name, String how) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        assumeTrue(false, name + " not installed (Debian rdmacm-utils); " + how);
        return null;
    }
}
