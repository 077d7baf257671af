package io.rdma.srq.bench;

import jakarta.servlet.http.HttpServletRequest;

/** Request parameters with a range check that names the parameter. */
final class Params {
    private Params() {
    }

    /**
     * @return the parameter as an int in min..max, or {@code fallback} when absent
     * @throws IllegalArgumentException naming the parameter, the range and the value
     */
    static int intIn(HttpServletRequest req, String name, int fallback, int min, int max) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(name + " must be an integer in " + min + ".." + max + ", got '" + v + "'");
    }
}
