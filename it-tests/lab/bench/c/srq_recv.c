/*
 * srq_recv: the C reference receiver of the lab message-rate benchmark (issue #9) — the same loop
 * as the Java receiver (io.rdma.srq.verbs.lab.bench.SrqRateReceiver), so the Java one has a
 * same-sender reference.
 *
 * An rdma_cm server: listens on ADDR:PORT, accepts every connection onto an RC QP whose receives
 * come from ONE SRQ of DEPTH receive WRs (each a BUFFER-byte slice of one registered slab), busy-polls
 * the one CQ in batches of 32 and reposts each batch's buffers as one chain (wr_id = buffer index).
 * rdma_cm events are taken without blocking every 1024 loop iterations.
 * A run is one set of connections: it ends when every connection accepted since the last run has
 * disconnected. Per run it prints one machine-readable line on stdout:
 *   RECEIVER impl=c run=N qps=Q messages=M errors=E seconds=T msg_per_s=R
 * with T from the first to the last receive completion polled and R = (M - 1) / T.
 * Before accepting it prints "LISTENING port=P". Exits 0 after RUNS runs.
 *
 * Build: gcc -O2 -Wall -o srq_recv srq_recv.c -lrdmacm -libverbs
 * Usage: srq_recv -a ADDR [-p PORT] [-b BUFFER] [-r DEPTH] [-R RUNS]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>

#define POLL_BATCH 32

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) {
    fprintf(stderr, "srq_recv: %s: %s\n", what, strerror(errno));
    exit(1);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *port = "18600";
    int buffer = 4096, depth = 4096, runs = 1;
    int c;
    while ((c = getopt(argc, argv, "a:p:b:r:R:")) != -1) {
        switch (c) {
        case 'a': addr = optarg; break;
        case 'p': port = optarg; break;
        case 'b': buffer = atoi(optarg); break;
        case 'r': depth = atoi(optarg); break;
        case 'R': runs = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: %s -a ADDR [-p PORT] [-b BUFFER] [-r DEPTH] [-R RUNS]\n", argv[0]);
            return 2;
        }
    }
    if (!addr || buffer < 1 || depth < 1 || runs < 1) {
        fprintf(stderr, "srq_recv: need -a ADDR, BUFFER >= 1, DEPTH >= 1, RUNS >= 1\n");
        return 2;
    }
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *local;
    if (getaddrinfo(addr, port, &hints, &local)) {
        fprintf(stderr, "srq_recv: cannot resolve %s:%s\n", addr, port);
        return 2;
    }
    struct rdma_event_channel *ec = rdma_create_event_channel();
    struct rdma_cm_id *listen_id;
    if (!ec || rdma_create_id(ec, &listen_id, NULL, RDMA_PS_TCP))
        die("rdma_create_id");
    if (rdma_bind_addr(listen_id, local->ai_addr))
        die("rdma_bind_addr");
    freeaddrinfo(local);
    if (!listen_id->verbs) {
        fprintf(stderr, "srq_recv: %s is not the address of an RDMA device\n", addr);
        return 2;
    }
    struct ibv_pd *pd = ibv_alloc_pd(listen_id->verbs);
    struct ibv_cq *cq = pd ? ibv_create_cq(listen_id->verbs, depth + POLL_BATCH, NULL, NULL, 0) : NULL;
    struct ibv_srq_init_attr sa = {.attr = {.max_wr = depth, .max_sge = 1}};
    struct ibv_srq *srq = cq ? ibv_create_srq(pd, &sa) : NULL;
    char *slab = aligned_alloc(4096, ((size_t) buffer * depth + 4095) / 4096 * 4096);
    struct ibv_mr *mr = srq && slab ? ibv_reg_mr(pd, slab, (size_t) buffer * depth, IBV_ACCESS_LOCAL_WRITE) : NULL;
    if (!mr)
        die("ibv_alloc_pd / ibv_create_cq / ibv_create_srq / ibv_reg_mr");
    struct ibv_sge sge[POLL_BATCH];
    struct ibv_recv_wr wr[POLL_BATCH], *bad;
    for (int i = 0; i < depth;) {   /* fill the SRQ, in chains of POLL_BATCH */
        int k = 0;
        for (; k < POLL_BATCH && i < depth; k++, i++) {
            sge[k] = (struct ibv_sge){.addr = (uintptr_t) (slab + (size_t) i * buffer), .length = buffer, .lkey = mr->lkey};
            wr[k] = (struct ibv_recv_wr){.wr_id = i, .sg_list = &sge[k], .num_sge = 1, .next = NULL};
            if (k > 0)
                wr[k - 1].next = &wr[k];
        }
        if ((errno = ibv_post_srq_recv(srq, wr, &bad)))
            die("ibv_post_srq_recv");
    }
    if (rdma_listen(listen_id, 128))
        die("rdma_listen");
    if (fcntl(ec->fd, F_SETFL, fcntl(ec->fd, F_GETFL) | O_NONBLOCK))
        die("fcntl");
    printf("LISTENING port=%d\n", ntohs(rdma_get_src_port(listen_id)));
    fflush(stdout);

    struct ibv_wc wc[POLL_BATCH];
    long messages = 0, errors = 0;
    int run = 0, live = 0, accepted = 0;
    double t_first = 0, t_last = 0;
    for (unsigned long iter = 0;; iter++) {
        int n = ibv_poll_cq(cq, POLL_BATCH, wc);
        if (n < 0)
            die("ibv_poll_cq");
        if (n > 0) {
            int k = 0;
            for (int j = 0; j < n; j++) {
                if (wc[j].status != IBV_WC_SUCCESS) {
                    errors++;
                } else {
                    messages++;
                }
                uint64_t b = wc[j].wr_id;   /* the buffer goes back either way */
                sge[k] = (struct ibv_sge){.addr = (uintptr_t) (slab + b * buffer), .length = buffer, .lkey = mr->lkey};
                wr[k] = (struct ibv_recv_wr){.wr_id = b, .sg_list = &sge[k], .num_sge = 1, .next = NULL};
                if (k > 0)
                    wr[k - 1].next = &wr[k];
                k++;
            }
            if ((errno = ibv_post_srq_recv(srq, wr, &bad)))
                die("ibv_post_srq_recv");
            t_last = now_s();
            if (t_first == 0)
                t_first = t_last;
            continue;
        }
        if ((iter & 1023) != 0)
            continue;
        struct rdma_cm_event *e;
        if (rdma_get_cm_event(ec, &e)) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            die("rdma_get_cm_event");
        }
        struct rdma_cm_id *id = e->id;
        enum rdma_cm_event_type type = e->event;
        if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
            struct ibv_qp_init_attr qa = {.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = IBV_QPT_RC,
                                          .cap = {.max_send_wr = 1, .max_send_sge = 1}};
            struct rdma_conn_param cp = {.rnr_retry_count = 7, .retry_count = 7};
            if (rdma_create_qp(id, pd, &qa) || rdma_accept(id, &cp)) {
                fprintf(stderr, "srq_recv: refusing a connection: %s\n", strerror(errno));
                rdma_reject(id, NULL, 0);
            } else {
                live++;
                accepted++;
            }
            rdma_ack_cm_event(e);
        } else if (type == RDMA_CM_EVENT_DISCONNECTED) {
            rdma_ack_cm_event(e);
            rdma_destroy_qp(id);
            rdma_destroy_id(id);
            if (--live == 0 && accepted > 0) {
                double secs = t_last - t_first;
                printf("RECEIVER impl=c run=%d qps=%d messages=%ld errors=%ld seconds=%.6f msg_per_s=%.1f\n", run,
                       accepted, messages, errors, secs, secs > 0 ? (messages - 1) / secs : 0.0);
                fflush(stdout);
                messages = errors = 0;
                accepted = 0;
                t_first = t_last = 0;
                if (++run == runs)
                    break;
            }
        } else {
            rdma_ack_cm_event(e);
        }
    }
    rdma_destroy_id(listen_id);
    ibv_destroy_srq(srq);
    ibv_dereg_mr(mr);
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    rdma_destroy_event_channel(ec);
    free(slab);
    return 0;
}
