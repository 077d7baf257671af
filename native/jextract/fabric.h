/* What the libfabric binding (io.rdma.srq.verbs.ffi.fabric) is generated from: libfabric-dev's headers for
 * MSG endpoints on a shared receive context, their CM and event queues (fi_endpoint(3), fi_cm(3),
 * fi_eq(3), fi_cq(3)). Run by generate.sh; the include list is fabric.includes. */
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
