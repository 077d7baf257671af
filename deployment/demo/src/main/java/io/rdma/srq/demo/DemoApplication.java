package io.rdma.srq.demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** REST under /srq-demo/api. */
@ApplicationPath("/api")
public class DemoApplication extends Application {
}
