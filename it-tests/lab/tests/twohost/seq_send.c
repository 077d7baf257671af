/*
 * seq_send: the counting sender of the two-host lab's fault tests (issue 23).
 *
 * An rdma_cm client on one RC QP that sends COUNT messages of 64 bytes to ADDR:PORT, each carrying
 * its sequence number: bytes 0-3 the magic 0x53455131 ("SEQ1"), 4-7 the sender id, 8-15 the
 * sequence number (0, 1, ..., COUNT - 1), all big-endian. Every WR is signaled with wr_id = its
 * sequence number, at most WINDOW outstanding, at most RATE posts a second.
 *
 * What the sender was told is printed as it happens (stdout, line-buffered), so that a sender killed
 * with SIGKILL has still said what it knew:
 *   CONN c first=F            connection c established; its first message will be F
 *   ACKED c upto=U            messages F .. U-1 of connection c completed with IBV_WC_SUCCESS
 *                             (RC completes in order: a success of U-1 means every earlier one of
 *                             the connection succeeded); printed at most every 50 ms and at the end
 *   FAIL c seq=E status=S ms=T  the first error completion of connection c (E and every later
 *                             message of it are not acknowledged; they are never sent again, so a
 *                             receiver sees no duplicate); T = CLOCK_MONOTONIC ms
 *   RESUMED c ms=T down_ms=D  connection c established D ms after the previous one failed
 *   SENDER id=I acked=A posted=P connections=C   at the end
 * After a failure it connects again (a new QP) until RECONNECT seconds have passed since the
 * failure, and continues with the next sequence number never posted. Exit 0 when every message
 * was posted (some may be unacknowledged), 1 when it gave up.
 *
 * The QP's local ACK timeout is ACK_TIMEOUT (4.096 us * 2^n; rdma_set_option
 * RDMA_OPTION_ID_ACK_TIMEOUT, default 14: ~67 ms a try) and its retry_cnt RETRY_COUNT (default 6),
 * so a receiver that lost the QP is seen within about half a second; rnr_retry_count 7 (infinite).
 * rxe retries forever with retry_cnt 7 (its completer never counts 7 down: driver note 24), so
 * `-c 7` shows that: the sender then never learns that the receiver lost its QP.
 *
 * Build: gcc -O2 -Wall -o seq_send seq_send.c -lrdmacm -libverbs
 * Usage: seq_send -a ADDR -p PORT -n COUNT [-i SENDER_ID] [-r RATE] [-w WINDOW] [-R RECONNECT_S]
 *                 [-t ACK_TIMEOUT] [-c RETRY_COUNT]
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>

#define SIZE 64
#define MAX_WINDOW 256
#define MAGIC 0x53455131u

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The next rdma_cm event of `id` within ms; returns its type, or -1 (timeout/error). */
static int next_event(struct rdma_event_channel *ec, int ms, int *status) {
    struct pollfd p = {.fd = ec->fd, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0)
        return -1;
    struct rdma_cm_event *e;
    if (rdma_get_cm_event(ec, &e))
        return -1;
    int type = e->event;
    *status = e->status;
    rdma_ack_cm_event(e);
    return type;
}

struct conn {
    struct rdma_event_channel *ec;
    struct rdma_cm_id *id;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_mr *mr;
};

static void drop(struct conn *c) {
    if (c->id && c->id->qp)
        rdma_destroy_qp(c->id);
    if (c->mr)
        ibv_dereg_mr(c->mr);
    if (c->cq)
        ibv_destroy_cq(c->cq);
    if (c->pd)
        ibv_dealloc_pd(c->pd);
    if (c->id)
        rdma_destroy_id(c->id);
    if (c->ec)
        rdma_destroy_event_channel(c->ec);
    memset(c, 0, sizeof *c);
}

/* Says why a connect failed, on stderr, when the reason differs from the last one said. */
static void why(const char *step, int ev, int status) {
    static char last[160];
    char now[160];
    snprintf(now, sizeof now, "%s: %s status %d errno %d", step, ev < 0 ? "no event" : rdma_event_str(ev), status, errno);
    if (strcmp(now, last)) {
        fprintf(stderr, "seq_send: connect failed at %s (ms=%ld)\n", now, now_ms());
        strcpy(last, now);
    }
}

/* One attempt to connect within about 3 s; 0 on ESTABLISHED. */
static int connect_once(struct conn *c, struct sockaddr *dst, char *buf, int window, int ack_timeout, int retry) {
    int st = 0, ev = -1;
    memset(c, 0, sizeof *c);
    if (!(c->ec = rdma_create_event_channel()) || rdma_create_id(c->ec, &c->id, NULL, RDMA_PS_TCP))
        goto fail;
    if (rdma_resolve_addr(c->id, NULL, dst, 1000) || (ev = next_event(c->ec, 1500, &st)) != RDMA_CM_EVENT_ADDR_RESOLVED) {
        why("rdma_resolve_addr", ev, st);
        goto fail;
    }
    if (rdma_resolve_route(c->id, 1000) || (ev = next_event(c->ec, 1500, &st)) != RDMA_CM_EVENT_ROUTE_RESOLVED) {
        why("rdma_resolve_route", ev, st);
        goto fail;
    }
    uint8_t t = (uint8_t) ack_timeout;
    if (rdma_set_option(c->id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &t, sizeof t))
        goto fail;
    if (!(c->pd = ibv_alloc_pd(c->id->verbs)) || !(c->cq = ibv_create_cq(c->id->verbs, window + 1, NULL, NULL, 0))
        || !(c->mr = ibv_reg_mr(c->pd, buf, (size_t) window * SIZE, 0)))
        goto fail;
    struct ibv_qp_init_attr qa = {
        .send_cq = c->cq, .recv_cq = c->cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 1,
        .cap = {.max_send_wr = window, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1},
    };
    if (rdma_create_qp(c->id, c->pd, &qa))
        goto fail;
    struct rdma_conn_param cp = {.retry_count = (uint8_t) retry, .rnr_retry_count = 7};
    if (rdma_connect(c->id, &cp) || (ev = next_event(c->ec, 3000, &st)) != RDMA_CM_EVENT_ESTABLISHED) {
        why("rdma_connect", ev, st);
        goto fail;
    }
    return 0;
fail:
    drop(c);
    return -1;
}

int main(int argc, char **argv) {
    const char *addr = NULL, *port = NULL;
    long count = 0, rate = 200;
    int id = 1, window = 16, reconnect_s = 30, ack_timeout = 14, retry = 6, o;
    while ((o = getopt(argc, argv, "a:p:n:i:r:w:R:t:c:")) != -1) {
        switch (o) {
        case 'a': addr = optarg; break;
        case 'p': port = optarg; break;
        case 'n': count = atol(optarg); break;
        case 'i': id = atoi(optarg); break;
        case 'r': rate = atol(optarg); break;
        case 'w': window = atoi(optarg); break;
        case 'R': reconnect_s = atoi(optarg); break;
        case 't': ack_timeout = atoi(optarg); break;
        case 'c': retry = atoi(optarg); break;
        default: goto usage;
        }
    }
    if (!addr || !port || count < 1 || rate < 1 || window < 1 || window > MAX_WINDOW || ack_timeout < 1 || ack_timeout > 31 || retry < 0 || retry > 7)
        goto usage;
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *dst;
    if (getaddrinfo(addr, port, &hints, &dst)) {
        fprintf(stderr, "seq_send: cannot resolve %s:%s\n", addr, port);
        return 2;
    }
    static char buf[MAX_WINDOW * SIZE];
    struct conn c;
    long next = 0, acked = 0, conns = 0, failed_ms = -1;
    long give_up = now_ms() + reconnect_s * 1000L;
    while (next < count) {
        if (connect_once(&c, dst->ai_addr, buf, window, ack_timeout, retry)) {
            if (now_ms() > give_up) {
                fprintf(stderr, "seq_send: no connection to %s:%s within %d s\n", addr, port, reconnect_s);
                break;
            }
            usleep(200 * 1000);
            continue;
        }
        conns++;
        long first = next, upto = next, outstanding = 0, last_print = 0;
        printf("CONN %ld first=%ld\n", conns, first);
        if (failed_ms >= 0)
            printf("RESUMED %ld ms=%ld down_ms=%ld\n", conns, now_ms(), now_ms() - failed_ms);
        long t0 = now_ms(), posted_here = 0;
        int failed = 0;
        while (!failed && (next < count || outstanding > 0)) {
            /* post while the window and the rate allow */
            while (next < count && outstanding < window && posted_here * 1000 <= (now_ms() - t0) * rate) {
                char *m = buf + (next % window) * SIZE;
                uint32_t magic = htobe32(MAGIC), sid = htobe32((uint32_t) id);
                uint64_t seq = htobe64((uint64_t) next);
                memcpy(m, &magic, 4);
                memcpy(m + 4, &sid, 4);
                memcpy(m + 8, &seq, 8);
                struct ibv_sge sge = {.addr = (uintptr_t) m, .length = SIZE, .lkey = c.mr->lkey};
                struct ibv_send_wr wr = {.wr_id = (uint64_t) next, .sg_list = &sge, .num_sge = 1,
                                         .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED}, *bad;
                if (ibv_post_send(c.id->qp, &wr, &bad)) {
                    failed = 1;
                    break;
                }
                next++;
                posted_here++;
                outstanding++;
            }
            struct ibv_wc wc[32];
            int n = ibv_poll_cq(c.cq, 32, wc);
            for (int j = 0; j < n && !failed; j++) {
                if (wc[j].status == IBV_WC_SUCCESS) {
                    upto = (long) wc[j].wr_id + 1;
                    outstanding--;
                } else {
                    failed_ms = now_ms();
                    printf("FAIL %ld seq=%ld status=%s ms=%ld\n", conns, (long) wc[j].wr_id,
                           ibv_wc_status_str(wc[j].status), failed_ms);
                    failed = 1;
                }
            }
            if (upto > first && now_ms() - last_print >= 50) {
                printf("ACKED %ld upto=%ld\n", conns, upto);
                last_print = now_ms();
            }
            if (n == 0)
                usleep(1000);
        }
        printf("ACKED %ld upto=%ld\n", conns, upto);
        acked += upto - first;
        if (!failed) {
            rdma_disconnect(c.id);
            int st;
            next_event(c.ec, 2000, &st);   /* DISCONNECTED */
        }
        drop(&c);
        give_up = now_ms() + reconnect_s * 1000L;
    }
    printf("SENDER id=%d acked=%ld posted=%ld connections=%ld\n", id, acked, next, conns);
    freeaddrinfo(dst);
    return next == count ? 0 : 1;
usage:
    fprintf(stderr, "usage: %s -a ADDR -p PORT -n COUNT [-i SENDER_ID] [-r RATE] [-w WINDOW] [-R RECONNECT_S] "
                    "[-t ACK_TIMEOUT] [-c RETRY_COUNT]\n", argv[0]);
    return 2;
}
