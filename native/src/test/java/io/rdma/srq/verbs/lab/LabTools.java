package io.rdma.srq.verbs.lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the lab tests of every module share: finding rdma-core's and perftest's tools. */
public final class LabTools {
    private LabTools() {
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
