/*
 * ffm_path_loops.c: the loops of FfmPathBenchmark (native/src/test/java/io/rdma/srq/verbs/bench) in C,
 * straight on libibverbs, as the reference for the Java/C ratio of issue #9. Built at bench time by
 * native/src/bench/ffm-path.sh (gcc -O2 ... -libverbs); never committed as a binary.
 *
 *   ffm_path_loops DEVICE GID_INDEX [WARMUP_RUNS RUNS RUN_MS POST_WARMUP POST_RUNS]
 *
 * Same objects and sizes as the Java benchmark (CQs of 256 CQEs, 32 WCs per poll and per batch,
 * parse32's WCs received on an SRQ of max_wr 64 from 32 SEND with immediate of 64 bytes over a
 * loopback RC QP pair, postSrqRecv on a fresh SRQ of max_wr 1024 x chain per run) and the same
 * timing: clock_gettime(CLOCK_MONOTONIC) around each run; pollEmptyCq and parse32 runs last RUN_MS
 * (like a JMH AverageTime iteration) and give ns per op; a postSrqRecv run times 1024 calls as one
 * shot (like a JMH SingleShotTime iteration of batchSize 1024). The median over RUNS (POST_RUNS)
 * measured runs is printed, after WARMUP_RUNS (POST_WARMUP) unmeasured ones.
 *
 * Output, one line per case, tab-separated: case, median ns per op, runs, min, max. Ops: pollEmptyCq = one
 * ibv_poll_cq; parse32 = one batch of 32 WCs; postSrqRecv:chain=N = one ibv_post_srq_recv of N WRs.
 * Exit code 0, or 1 with a message on stderr.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 32
#define CQ_ENTRIES 256
#define PARSE_SRQ_WR 64
#define MESSAGE 64
#define POSTS 1024
#define PORT 1
#define CHECK_EVERY 1024 /* ops between two clock reads in a timed run */

static const int CHAINS[] = {1, 16, 64};

static int warmup_runs = 5, runs = 11, run_ms = 500, post_warmup = 100, post_runs = 21;

static void die(const char *what, int err)
{
	fprintf(stderr, "ffm_path_loops: %s: %s\n", what, strerror(err));
	exit(1);
}

static void *check(void *p, const char *what)
{
	if (!p)
		die(what, errno ? errno : ENOMEM);
	return p;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* what a JMH compiler blackhole does: the value must exist, nothing else happens to it */
static inline void sink(uint64_t v)
{
	__asm__ volatile("" : : "r"(v));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* prints "name<TAB>median<TAB>runs<TAB>min<TAB>max" */
static void print_result(const char *name, double *v, int n)
{
	qsort(v, n, sizeof *v, cmp_double);
	double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	printf("%s\t%.3f\t%d\t%.3f\t%.3f\n", name, median, n, v[0], v[n - 1]);
	fflush(stdout);
}

/* ---- pollEmptyCq and parse32: time-bounded runs, ns per op ------------------------------------ */

struct polling {
	struct ibv_cq *empty_cq;
	struct ibv_wc polled[BATCH];
	struct ibv_wc parsed[BATCH];
};

static void poll_empty(struct polling *s, long ops)
{
	for (long i = 0; i < ops; i++)
		sink((uint64_t)ibv_poll_cq(s->empty_cq, BATCH, s->polled));
}

static void parse32(struct polling *s, long ops)
{
	for (long op = 0; op < ops; op++) {
		const struct ibv_wc *wc = s->parsed;
		for (int i = 0; i < BATCH; i++) {
			sink(wc[i].wr_id);
			sink(wc[i].status);
			sink(wc[i].opcode);
			sink(wc[i].byte_len);
			unsigned int flags = wc[i].wc_flags;
			sink(flags);
			if (flags & IBV_WC_WITH_IMM)
				sink(be32toh(wc[i].imm_data));
			sink(wc[i].qp_num);
			sink(wc[i].src_qp);
		}
		/* the next op reads the WCs again from memory (in JMH the volatile isDone read between
		 * two invocations keeps the loads from being hoisted) */
		__asm__ volatile("" : : : "memory");
	}
}

static double timed_run(void (*loop)(struct polling *, long), struct polling *s)
{
	uint64_t t0 = now_ns(), limit = (uint64_t)run_ms * 1000000u, t;
	long ops = 0;
	do {
		loop(s, CHECK_EVERY);
		ops += CHECK_EVERY;
		t = now_ns() - t0;
	} while (t < limit);
	return (double)t / ops;
}

static void report_timed(const char *name, void (*loop)(struct polling *, long), struct polling *s)
{
	double *v = check(calloc(runs, sizeof *v), "calloc");
	for (int i = 0; i < warmup_runs; i++)
		timed_run(loop, s);
	for (int i = 0; i < runs; i++)
		v[i] = timed_run(loop, s);
	print_result(name, v, runs);
	free(v);
}

/* ---- the 32 real WCs --------------------------------------------------------------------------- */

static void to_rts(struct ibv_qp *qp, struct ibv_qp *peer, union ibv_gid *gid, int gid_index,
		   enum ibv_mtu mtu, uint32_t my_psn, uint32_t peer_psn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = PORT, .qp_access_flags = 0,
	};
	int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (rc)
		die("ibv_modify_qp INIT", rc);
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = peer->qp_num;
	a.rq_psn = peer_psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = PORT;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 1;
	rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		die("ibv_modify_qp RTR", rc);
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = my_psn;
	a.max_rd_atomic = 1;
	rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				   IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		die("ibv_modify_qp RTS", rc);
}

static void collect(struct ibv_cq *cq, struct ibv_wc *into, const char *what)
{
	uint64_t deadline = now_ns() + 10000000000u;
	int got = 0;
	while (got < BATCH) {
		int n = ibv_poll_cq(cq, BATCH - got, into + got);
		if (n < 0)
			die("ibv_poll_cq", EINVAL);
		got += n;
		if (n == 0 && now_ns() > deadline) {
			fprintf(stderr, "ffm_path_loops: %d of %d %s WCs after 10 s\n", got, BATCH, what);
			exit(1);
		}
	}
}

/* 32 SEND with immediate from QP a to QP b (on an SRQ); b's 32 WCs end up in s->parsed */
static void receive32(struct ibv_context *ctx, int gid_index, struct polling *s)
{
	struct ibv_port_attr port;
	union ibv_gid gid;
	int rc = ibv_query_port(ctx, PORT, &port);
	if (rc)
		die("ibv_query_port", rc);
	if ((rc = ibv_query_gid(ctx, PORT, gid_index, &gid)))
		die("ibv_query_gid", rc);
	struct ibv_pd *pd = check(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	struct ibv_srq_init_attr sattr = {.attr = {.max_wr = PARSE_SRQ_WR, .max_sge = 1}};
	struct ibv_srq *srq = check(ibv_create_srq(pd, &sattr), "ibv_create_srq");
	struct ibv_cq *send_cq = check(ibv_create_cq(ctx, CQ_ENTRIES, NULL, NULL, 0), "ibv_create_cq");
	struct ibv_cq *recv_cq = check(ibv_create_cq(ctx, CQ_ENTRIES, NULL, NULL, 0), "ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = send_cq, .recv_cq = send_cq, .qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = PARSE_SRQ_WR, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1},
	};
	struct ibv_qp *a = check(ibv_create_qp(pd, &qa), "ibv_create_qp");
	struct ibv_qp_init_attr qb = {
		.send_cq = recv_cq, .recv_cq = recv_cq, .srq = srq, .qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 1, .max_send_sge = 1},
	};
	struct ibv_qp *b = check(ibv_create_qp(pd, &qb), "ibv_create_qp on the SRQ");
	uint32_t psn_a = lrand48() & 0xffffff, psn_b = lrand48() & 0xffffff;
	to_rts(a, b, &gid, gid_index, port.active_mtu, psn_a, psn_b);
	to_rts(b, a, &gid, gid_index, port.active_mtu, psn_b, psn_a);

	void *buf;
	if ((rc = posix_memalign(&buf, 4096, (BATCH + 1) * MESSAGE)))
		die("posix_memalign", rc);
	struct ibv_mr *mr = check(ibv_reg_mr(pd, buf, (BATCH + 1) * MESSAGE, IBV_ACCESS_LOCAL_WRITE), "ibv_reg_mr");
	struct ibv_recv_wr rwr[BATCH], *bad_r;
	struct ibv_sge rsge[BATCH];
	for (int i = 0; i < BATCH; i++) {
		rsge[i] = (struct ibv_sge){(uintptr_t)buf + (i + 1) * MESSAGE, MESSAGE, mr->lkey};
		rwr[i] = (struct ibv_recv_wr){.wr_id = 1000 + i, .next = i + 1 < BATCH ? &rwr[i + 1] : NULL,
					      .sg_list = &rsge[i], .num_sge = 1};
	}
	if ((rc = ibv_post_srq_recv(srq, rwr, &bad_r)))
		die("ibv_post_srq_recv", rc);
	for (int i = 0; i < BATCH; i++) {
		struct ibv_sge sge = {(uintptr_t)buf, MESSAGE, mr->lkey};
		struct ibv_send_wr wr = {.wr_id = i, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND_WITH_IMM,
					 .send_flags = IBV_SEND_SIGNALED, .imm_data = htobe32(0x1000 + i)};
		struct ibv_send_wr *bad_s;
		if ((rc = ibv_post_send(a, &wr, &bad_s)))
			die("ibv_post_send", rc);
	}
	collect(recv_cq, s->parsed, "receive");
	collect(send_cq, s->polled, "send");
	for (int i = 0; i < BATCH; i++) {
		if (s->parsed[i].status != IBV_WC_SUCCESS || !(s->parsed[i].wc_flags & IBV_WC_WITH_IMM)) {
			fprintf(stderr, "ffm_path_loops: receive WC %d: %s, flags %u\n", i,
				ibv_wc_status_str(s->parsed[i].status), s->parsed[i].wc_flags);
			exit(1);
		}
	}
	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_destroy_srq(srq);
	ibv_dereg_mr(mr);
	free(buf);
	ibv_destroy_cq(recv_cq);
	ibv_destroy_cq(send_cq);
	ibv_dealloc_pd(pd);
}

/* ---- postSrqRecv: one shot of POSTS calls on a fresh SRQ, ns per call -------------------------- */

static double post_shot(struct ibv_pd *pd, struct ibv_recv_wr *chain, int n)
{
	struct ibv_srq_init_attr sattr = {.attr = {.max_wr = POSTS * n, .max_sge = 1}};
	struct ibv_srq *srq = check(ibv_create_srq(pd, &sattr), "ibv_create_srq");
	struct ibv_recv_wr *bad;
	uint64_t t0 = now_ns();
	for (int i = 0; i < POSTS; i++) {
		int rc = ibv_post_srq_recv(srq, chain, &bad);
		if (rc)
			die("ibv_post_srq_recv", rc);
	}
	uint64_t t = now_ns() - t0;
	if (ibv_destroy_srq(srq))
		die("ibv_destroy_srq", errno);
	return (double)t / POSTS;
}

static void report_posts(struct ibv_context *ctx, int n)
{
	struct ibv_pd *pd = check(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	void *buf;
	int rc;
	if ((rc = posix_memalign(&buf, 4096, n * MESSAGE)))
		die("posix_memalign", rc);
	struct ibv_mr *mr = check(ibv_reg_mr(pd, buf, n * MESSAGE, IBV_ACCESS_LOCAL_WRITE), "ibv_reg_mr");
	struct ibv_recv_wr *wr = check(calloc(n, sizeof *wr), "calloc");
	struct ibv_sge *sge = check(calloc(n, sizeof *sge), "calloc");
	for (int i = 0; i < n; i++) {
		sge[i] = (struct ibv_sge){(uintptr_t)buf + i * MESSAGE, MESSAGE, mr->lkey};
		wr[i] = (struct ibv_recv_wr){.wr_id = i, .next = i + 1 < n ? &wr[i + 1] : NULL, .sg_list = &sge[i],
					     .num_sge = 1};
	}
	double *v = check(calloc(post_runs, sizeof *v), "calloc");
	for (int i = 0; i < post_warmup; i++)
		post_shot(pd, wr, n);
	for (int i = 0; i < post_runs; i++)
		v[i] = post_shot(pd, wr, n);
	char name[32];
	snprintf(name, sizeof name, "postSrqRecv:chain=%d", n);
	print_result(name, v, post_runs);
	free(v);
	free(wr);
	free(sge);
	ibv_dereg_mr(mr);
	free(buf);
	ibv_dealloc_pd(pd);
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 8) {
		fprintf(stderr, "usage: %s DEVICE GID_INDEX [WARMUP_RUNS RUNS RUN_MS POST_WARMUP POST_RUNS]\n", argv[0]);
		return 2;
	}
	const char *name = argv[1];
	int gid_index = atoi(argv[2]);
	if (argc == 8) {
		warmup_runs = atoi(argv[3]);
		runs = atoi(argv[4]);
		run_ms = atoi(argv[5]);
		post_warmup = atoi(argv[6]);
		post_runs = atoi(argv[7]);
		if (runs < 1 || run_ms < 1 || post_runs < 1 || warmup_runs < 0 || post_warmup < 0) {
			fprintf(stderr, "ffm_path_loops: RUNS, RUN_MS and POST_RUNS must be >= 1, warmups >= 0\n");
			return 2;
		}
	}
	srand48(now_ns());
	int num;
	struct ibv_device **list = ibv_get_device_list(&num);
	if (!list)
		die("ibv_get_device_list", errno);
	struct ibv_device *dev = NULL;
	for (int i = 0; i < num; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "ffm_path_loops: no device %s among %d\n", name, num);
		return 1;
	}
	struct ibv_context *ctx = check(ibv_open_device(dev), "ibv_open_device");
	ibv_free_device_list(list);

	struct polling *s = check(calloc(1, sizeof *s), "calloc");
	s->empty_cq = check(ibv_create_cq(ctx, CQ_ENTRIES, NULL, NULL, 0), "ibv_create_cq");
	receive32(ctx, gid_index, s);
	report_timed("pollEmptyCq", poll_empty, s);
	report_timed("parse32", parse32, s);
	for (unsigned i = 0; i < sizeof CHAINS / sizeof *CHAINS; i++)
		report_posts(ctx, CHAINS[i]);
	ibv_destroy_cq(s->empty_cq);
	free(s);
	ibv_close_device(ctx);
	return 0;
}
