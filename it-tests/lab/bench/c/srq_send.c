/*
 * srq_send: the one sender of the lab message-rate benchmark (issue #9).
 *
 * An rdma_cm client: opens QPS RC QPs to ADDR:PORT (all on one PD and one send CQ), then sends
 * MESSAGES SEND operations of SIZE bytes on each QP (or sends for SECONDS), at most WINDOW
 * send WRs outstanding per QP, every k-th WR signaled, POST_LIST WRs per ibv_post_send (default 1,
 * as perftest's -l), round robin over the QPs, polls the send CQ busily in batches of 32, then
 * disconnects every QP. With -w 128 -k K -I 0 and the default post list it sends as
 * `ib_send_bw -t 128 -Q K -I 0` does.
 * rnr_retry_count = 7 (infinite): a receiver whose SRQ is momentarily empty delays the run but
 * does not fail it. Prints one machine-readable line on stdout:
 *   SENDER qps=Q size=S messages=TOTAL seconds=T msg_per_s=R
 * (TOTAL over all QPs; T from the first post to the last send completion). Exit 0 on success.
 *
 * Build: gcc -O2 -Wall -o srq_send srq_send.c -lrdmacm -libverbs
 * Usage: srq_send -a ADDR [-p PORT] [-q QPS] [-s SIZE] [-n MESSAGES_PER_QP | -t SECONDS]
 *                 [-w WINDOW] [-k SIGNAL_EVERY] [-l POST_LIST] [-I MAX_INLINE]
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>

#define MAX_QPS 256
#define POLL_BATCH 32
#define MAX_CHAIN 64

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) {
    fprintf(stderr, "srq_send: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Waits for the next rdma_cm event, which must be `expected` on `id`. */
static void expect_event(struct rdma_event_channel *ec, struct rdma_cm_id *id, enum rdma_cm_event_type expected) {
    struct rdma_cm_event *e;
    if (rdma_get_cm_event(ec, &e))
        die("rdma_get_cm_event");
    if (e->event != expected || e->id != id) {
        fprintf(stderr, "srq_send: expected %s, got %s (status %d)\n", rdma_event_str(expected),
                rdma_event_str(e->event), e->status);
        exit(1);
    }
    rdma_ack_cm_event(e);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *port = "18600";
    int qps = 1, size = 64, window = 128, every = 16, post_list = 1, max_inline = 0;
    long per_qp = 10000;
    double seconds = 0;
    int c;
    while ((c = getopt(argc, argv, "a:p:q:s:n:t:w:k:l:I:")) != -1) {
        switch (c) {
        case 'a': addr = optarg; break;
        case 'p': port = optarg; break;
        case 'q': qps = atoi(optarg); break;
        case 's': size = atoi(optarg); break;
        case 'n': per_qp = atol(optarg); break;
        case 't': seconds = atof(optarg); break;
        case 'w': window = atoi(optarg); break;
        case 'k': every = atoi(optarg); break;
        case 'l': post_list = atoi(optarg); break;
        case 'I': max_inline = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: %s -a ADDR [-p PORT] [-q QPS] [-s SIZE] [-n MESSAGES_PER_QP | -t SECONDS] "
                            "[-w WINDOW] [-k SIGNAL_EVERY] [-l POST_LIST] [-I MAX_INLINE]\n", argv[0]);
            return 2;
        }
    }
    if (!addr || qps < 1 || qps > MAX_QPS || size < 1 || per_qp < 1 || window < 1 || every < 1
        || every > MAX_CHAIN || window % every != 0 || post_list < 1 || post_list > MAX_CHAIN) {
        fprintf(stderr, "srq_send: need -a ADDR, 1 <= QPS <= %d, SIZE >= 1, MESSAGES >= 1, "
                        "1 <= SIGNAL_EVERY, POST_LIST <= %d and WINDOW a multiple of SIGNAL_EVERY\n", MAX_QPS, MAX_CHAIN);
        return 2;
    }

    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *dst;
    if (getaddrinfo(addr, port, &hints, &dst)) {
        fprintf(stderr, "srq_send: cannot resolve %s:%s\n", addr, port);
        return 2;
    }
    struct rdma_event_channel *ec = rdma_create_event_channel();
    if (!ec)
        die("rdma_create_event_channel");

    struct rdma_cm_id *id[MAX_QPS];
    struct ibv_pd *pd = NULL;
    struct ibv_cq *cq = NULL;
    struct ibv_mr *mr = NULL;
    char *buf = NULL;
    for (int i = 0; i < qps; i++) {
        if (rdma_create_id(ec, &id[i], NULL, RDMA_PS_TCP))
            die("rdma_create_id");
        if (rdma_resolve_addr(id[i], NULL, dst->ai_addr, 5000))
            die("rdma_resolve_addr");
        expect_event(ec, id[i], RDMA_CM_EVENT_ADDR_RESOLVED);
        if (rdma_resolve_route(id[i], 5000))
            die("rdma_resolve_route");
        expect_event(ec, id[i], RDMA_CM_EVENT_ROUTE_RESOLVED);
        if (!pd) {
            pd = ibv_alloc_pd(id[i]->verbs);
            cq = ibv_create_cq(id[i]->verbs, qps * window / every + POLL_BATCH, NULL, NULL, 0);
            buf = calloc(1, size);
            if (!pd || !cq || !buf)
                die("ibv_alloc_pd / ibv_create_cq");
            mr = ibv_reg_mr(pd, buf, size, IBV_ACCESS_LOCAL_WRITE);
            if (!mr)
                die("ibv_reg_mr");
        }
        struct ibv_qp_init_attr qa = {
            .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
            .cap = {.max_send_wr = window, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1,
                    .max_inline_data = max_inline},
        };
        if (rdma_create_qp(id[i], pd, &qa))
            die("rdma_create_qp");
        struct rdma_conn_param cp = {.retry_count = 7, .rnr_retry_count = 7};
        if (rdma_connect(id[i], &cp))
            die("rdma_connect");
        expect_event(ec, id[i], RDMA_CM_EVENT_ESTABLISHED);
    }
    freeaddrinfo(dst);

    long sent[MAX_QPS] = {0}, outstanding[MAX_QPS] = {0}, target[MAX_QPS];
    int since_signal[MAX_QPS] = {0};
    for (int i = 0; i < qps; i++)
        target[i] = seconds > 0 ? -1 : per_qp;   /* -1: until time is up */
    struct ibv_sge sge[MAX_CHAIN];
    struct ibv_send_wr wr[MAX_CHAIN], *bad;
    struct ibv_wc wc[POLL_BATCH];
    int inline_flag = (max_inline > 0 && size <= max_inline) ? IBV_SEND_INLINE : 0;
    long total = 0, done = 0, expected = seconds > 0 ? -1 : per_qp * qps;
    double t0 = now_s(), t_end = t0;
    int stopping = 0;
    for (;;) {
        if (seconds > 0 && !stopping && now_s() - t0 >= seconds) {
            /* time is up: finish every QP at its next signaled WR so nothing stays unsignaled */
            stopping = 1;
            expected = 0;
            for (int i = 0; i < qps; i++) {
                target[i] = sent[i] + (since_signal[i] ? every - since_signal[i] : 0);
                expected += target[i];
            }
        }
        for (int i = 0; i < qps; i++) {
          for (;;) {   /* fill this QP's window, as perftest does, then the next QP */
            long left = target[i] < 0 ? MAX_CHAIN : target[i] - sent[i];
            long room = window - outstanding[i];
            long chain = every - since_signal[i];   /* at most up to and including the next signaled WR */
            if (chain > post_list) chain = post_list;
            if (chain > left) chain = left;
            if (chain > room) chain = room;
            if (chain <= 0)
                break;
            for (int j = 0; j < chain; j++) {
                sge[j] = (struct ibv_sge){.addr = (uintptr_t) buf, .length = size, .lkey = mr->lkey};
                wr[j] = (struct ibv_send_wr){.sg_list = &sge[j], .num_sge = 1, .opcode = IBV_WR_SEND,
                                             .send_flags = inline_flag, .next = j + 1 < chain ? &wr[j + 1] : NULL};
            }
            since_signal[i] += chain;
            sent[i] += chain;
            outstanding[i] += chain;
            if (since_signal[i] == every || sent[i] == target[i]) {
                /* wr_id = QP index << 32 | WRs this completion retires */
                wr[chain - 1].send_flags |= IBV_SEND_SIGNALED;
                wr[chain - 1].wr_id = ((uint64_t) i << 32) | (uint32_t) since_signal[i];
                since_signal[i] = 0;
            }
            int rc = ibv_post_send(id[i]->qp, wr, &bad);
            if (rc) {
                errno = rc;
                die("ibv_post_send");
            }
            total += chain;
          }
        }
        int n = ibv_poll_cq(cq, POLL_BATCH, wc);
        if (n < 0)
            die("ibv_poll_cq");
        for (int j = 0; j < n; j++) {
            if (wc[j].status != IBV_WC_SUCCESS) {
                fprintf(stderr, "srq_send: send completion %s (vendor_err 0x%x) on QP %u\n",
                        ibv_wc_status_str(wc[j].status), wc[j].vendor_err, wc[j].qp_num);
                return 1;
            }
            int i = (int) (wc[j].wr_id >> 32);
            long retired = (long) (wc[j].wr_id & 0xffffffffu);
            outstanding[i] -= retired;
            done += retired;
        }
        if (n > 0)
            t_end = now_s();
        if (expected >= 0 && done == expected)
            break;
    }
    double secs = t_end - t0;
    printf("SENDER qps=%d size=%d messages=%ld seconds=%.6f msg_per_s=%.1f\n", qps, size, done, secs,
           secs > 0 ? done / secs : 0.0);
    fflush(stdout);

    for (int i = 0; i < qps; i++)
        rdma_disconnect(id[i]);
    for (int i = 0; i < qps; i++) {
        struct rdma_cm_event *e;
        if (rdma_get_cm_event(ec, &e) == 0)   /* DISCONNECTED of one of ours, in any order */
            rdma_ack_cm_event(e);
    }
    for (int i = 0; i < qps; i++) {
        rdma_destroy_qp(id[i]);
        rdma_destroy_id(id[i]);
    }
    ibv_dereg_mr(mr);
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    rdma_destroy_event_channel(ec);
    free(buf);
    return total == done ? 0 : 1;
}
