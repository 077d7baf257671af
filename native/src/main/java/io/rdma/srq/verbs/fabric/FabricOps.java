package io.rdma.srq.verbs.fabric;

import io.rdma.srq.api.VerbsException;
import io.rdma.srq.verbs.ffi.fabric.Fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_ops;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_cm;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_cq;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_domain;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_eq;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_fabric;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_mr;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_msg;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_poll;
import io.rdma.srq.verbs.ffi.fabric.fi_ops_wait;
import io.rdma.srq.verbs.ffi.fabric.fid;
import io.rdma.srq.verbs.ffi.fabric.fid_cq;
import io.rdma.srq.verbs.ffi.fabric.fid_domain;
import io.rdma.srq.verbs.ffi.fabric.fid_ep;
import io.rdma.srq.verbs.ffi.fabric.fid_eq;
import io.rdma.srq.verbs.ffi.fabric.fid_fabric;
import io.rdma.srq.verbs.ffi.fabric.fid_mr;
import io.rdma.srq.verbs.ffi.fabric.fid_pep;
import io.rdma.srq.verbs.ffi.fabric.fid_poll;
import io.rdma.srq.verbs.ffi.fabric.fid_wait;

import java.lang.foreign.MemorySegment;

/**
 * libfabric's static inline calls, made as the headers make them: through the object's ops table
 * ({@code fabric->ops->domain(...)}, {@code ep->msg->senddata(...)}, {@code fid->ops->close(...)}).
 * jextract emits nothing for a static inline function (it is no symbol of libfabric.so.1), so each
 * is written here once, with the header's own dispatch; the ops tables and their function-pointer
 * types are the generated ones ({@code io.rdma.srq.verbs.ffi.fabric}). Every object argument is the
 * pointer libfabric returned (a zero-length segment is fine: it is widened to its struct here).
 *
 * <p>Return values are libfabric's: 0 or a count on success, a negative {@code FI_E*} value (the
 * negated errno, fi_errno(3)) on failure; {@link #check} turns one into a {@link VerbsException}.
 * The library is loaded by {@link FabricLibrary#load()} (this class's initializer fails with
 * IllegalStateException when it is not installed). Sources: fi_domain(3), fi_endpoint(3), fi_cm(3), fi_eq(3), fi_cq(3), fi_msg(3) and the headers
 * rdma/fi_domain.h, fi_endpoint.h, fi_cm.h, fi_eq.h of libfabric 1.17 (the same dispatch in 2.1).
 */
public final class FabricOps {
    static {
        if (!FabricLibrary.load()) {
            throw new IllegalStateException(FabricLibrary.SONAME + " is not installed (Debian package libfabric1)");
        }
    }

    /** {@code FI_ENABLE}, the control command of fi_enable (rdma/fabric.h). */
    private static final int FI_ENABLE = Fabric.FI_ENABLE();

    private FabricOps() {
    }

    /**
     * {@return {@code FI_VERSION(major, minor)}: the version word fi_getinfo(3) takes}
     *
     * @param major the major version
     * @param minor the minor version
     */
    public static int version(int major, int minor) {
        return (major << 16) | minor;
    }

    /**
     * Fails on a negative return value.
     *
     * @param operation the libfabric call, e.g. {@code fi_endpoint}
     * @param rc        its return value
     * @return {@code rc} when it is ≥ 0
     * @throws VerbsException the errno of {@code -rc}, with fi_strerror(3)'s text
     */
    public static long check(String operation, long rc) {
        if (rc >= 0) {
            return rc;
        }
        int errno = (int) -rc;
        throw new VerbsException(operation, errno, Fabric.fi_strerror(errno).reinterpret(256).getString(0));
    }

    private static MemorySegment fabricOps(MemorySegment fabric) {
        return fid_fabric.ops(fabric.reinterpret(fid_fabric.sizeof())).reinterpret(fi_ops_fabric.sizeof());
    }

    /**
     * fi_mr(3) fi_mr_reg: {@code domain->mr->reg(&domain->fid, buf, len, access, 0, requested_key, 0,
     * mr, NULL)}.
     *
     * @param domain       the domain
     * @param buf          the first byte
     * @param len          bytes
     * @param access       FI_SEND, FI_RECV, ...
     * @param requestedKey the key asked for (ignored under FI_MR_PROV_KEY)
     * @param mrOut        receives the struct fid_mr pointer
     * @return 0 or a negative FI_E* value
     */
    public static int mrReg(MemorySegment domain, MemorySegment buf, long len, long access, long requestedKey,
                            MemorySegment mrOut) {
        MemorySegment ops = fid_domain.mr(domain.reinterpret(fid_domain.sizeof())).reinterpret(fi_ops_mr.sizeof());
        return fi_ops_mr.reg.invoke(fi_ops_mr.reg(ops), domain, buf, len, access, 0, requestedKey, 0, mrOut,
                MemorySegment.NULL);
    }

    /**
     * fi_mr(3) fi_mr_desc: {@code mr->mem_desc}, the local descriptor a data transfer names the
     * registered buffer with.
     *
     * @param mr the memory region (struct fid_mr)
     * @return the descriptor (NULL where the provider needs none)
     */
    public static MemorySegment mrDesc(MemorySegment mr) {
        return fid_mr.mem_desc(mr.reinterpret(fid_mr.sizeof()));
    }

    private static MemorySegment domainOps(MemorySegment domain) {
        return fid_domain.ops(domain.reinterpret(fid_domain.sizeof())).reinterpret(fi_ops_domain.sizeof());
    }

    private static MemorySegment fidOps(MemorySegment object) {
        return fid.ops(object.reinterpret(fid.sizeof())).reinterpret(fi_ops.sizeof());
    }

    private static MemorySegment cmOfEp(MemorySegment ep) {
        return fid_ep.cm(ep.reinterpret(fid_ep.sizeof())).reinterpret(fi_ops_cm.sizeof());
    }

    private static MemorySegment cmOfPep(MemorySegment pep) {
        return fid_pep.cm(pep.reinterpret(fid_pep.sizeof())).reinterpret(fi_ops_cm.sizeof());
    }

    private static MemorySegment msgOf(MemorySegment ep) {
        return fid_ep.msg(ep.reinterpret(fid_ep.sizeof())).reinterpret(fi_ops_msg.sizeof());
    }

    /**
     * fi_domain(3): {@code fabric->ops->domain(fabric, info, domain, context)}.
     *
     * @param fabric the fabric (struct fid_fabric *), from fi_fabric
     * @param info the fi_info the object is opened for
     * @param domainOut receives the struct fid_domain * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int domain(MemorySegment fabric, MemorySegment info, MemorySegment domainOut, MemorySegment context) {
        return fi_ops_fabric.domain.invoke(fi_ops_fabric.domain(fabricOps(fabric)), fabric, info, domainOut, context);
    }

    /**
     * fi_endpoint(3) fi_passive_ep: {@code fabric->ops->passive_ep(fabric, info, pep, context)}.
     *
     * @param fabric the fabric (struct fid_fabric *), from fi_fabric
     * @param info the fi_info the object is opened for
     * @param pepOut receives the struct fid_pep * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int passiveEp(MemorySegment fabric, MemorySegment info, MemorySegment pepOut, MemorySegment context) {
        return fi_ops_fabric.passive_ep.invoke(fi_ops_fabric.passive_ep(fabricOps(fabric)), fabric, info, pepOut,
                context);
    }

    /**
     * fi_eq(3) fi_eq_open: {@code fabric->ops->eq_open(fabric, attr, eq, context)}.
     *
     * @param fabric the fabric (struct fid_fabric *), from fi_fabric
     * @param attr the attributes (struct fi_eq_attr or fi_cq_attr)
     * @param eqOut receives the struct fid_eq * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int eqOpen(MemorySegment fabric, MemorySegment attr, MemorySegment eqOut, MemorySegment context) {
        return fi_ops_fabric.eq_open.invoke(fi_ops_fabric.eq_open(fabricOps(fabric)), fabric, attr, eqOut, context);
    }

    /**
     * fi_endpoint(3): {@code domain->ops->endpoint(domain, info, ep, context)}.
     *
     * @param domain the domain (struct fid_domain *)
     * @param info the fi_info the object is opened for
     * @param epOut receives the struct fid_ep * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int endpoint(MemorySegment domain, MemorySegment info, MemorySegment epOut, MemorySegment context) {
        return fi_ops_domain.endpoint.invoke(fi_ops_domain.endpoint(domainOps(domain)), domain, info, epOut, context);
    }

    /**
     * fi_endpoint(3) fi_srx_context: {@code domain->ops->srx_ctx(domain, attr, rx_ep, context)}.
     *
     * @param domain the domain (struct fid_domain *)
     * @param rxAttr the receive attributes (struct fi_rx_attr), e.g. the fi_info's rx_attr
     * @param srxOut receives the shared receive context, a struct fid_ep * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int srxContext(MemorySegment domain, MemorySegment rxAttr, MemorySegment srxOut,
                                 MemorySegment context) {
        return fi_ops_domain.srx_ctx.invoke(fi_ops_domain.srx_ctx(domainOps(domain)), domain, rxAttr, srxOut, context);
    }

    /**
     * fi_cq(3) fi_cq_open: {@code domain->ops->cq_open(domain, attr, cq, context)}.
     *
     * @param domain the domain (struct fid_domain *)
     * @param attr the attributes (struct fi_eq_attr or fi_cq_attr)
     * @param cqOut receives the struct fid_cq * (one pointer)
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int cqOpen(MemorySegment domain, MemorySegment attr, MemorySegment cqOut, MemorySegment context) {
        return fi_ops_domain.cq_open.invoke(fi_ops_domain.cq_open(domainOps(domain)), domain, attr, cqOut, context);
    }

    /**
     * fi_close(3) (fi_fabric.h): {@code fid->ops->close(fid)}; any object, its {@code struct fid} first.
     *
     * @param object any libfabric object (its struct fid comes first)
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int close(MemorySegment object) {
        return fi_ops.close.invoke(fi_ops.close(fidOps(object)), object);
    }

    /**
     * fi_ep_bind / fi_pep_bind / fi_scalable_ep_bind (fi_endpoint(3)): {@code ep->fid.ops->bind(&ep->fid,
     * bfid, flags)}; the same call for an active or passive endpoint.
     *
     * @param endpoint    an active or passive endpoint
     * @param boundObject what is bound: an EQ, a CQ or a shared receive context
     * @param flags       FI_TRANSMIT, FI_RECV for a CQ; 0 for an EQ or a shared receive context
     * @return 0, or a negative FI_E* value
     */
    public static int bind(MemorySegment endpoint, MemorySegment boundObject, long flags) {
        return fi_ops.bind.invoke(fi_ops.bind(fidOps(endpoint)), endpoint, boundObject, flags);
    }

    /**
     * fi_enable(3): {@code ep->fid.ops->control(&ep->fid, FI_ENABLE, NULL)}.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int enable(MemorySegment ep) {
        return fi_ops.control.invoke(fi_ops.control(fidOps(ep)), ep, FI_ENABLE, MemorySegment.NULL);
    }

    /**
     * fi_cm(3) fi_listen: {@code pep->cm->listen(pep)}.
     *
     * @param pep the passive endpoint (struct fid_pep *)
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int listen(MemorySegment pep) {
        return fi_ops_cm.listen.invoke(fi_ops_cm.listen(cmOfPep(pep)), pep);
    }

    /**
     * fi_cm(3) fi_getname on a passive endpoint: {@code pep->cm->getname(&pep->fid, addr, addrlen)}.
     *
     * @param pep the passive endpoint (struct fid_pep *)
     * @param addr the address buffer (struct sockaddr for tcp)
     * @param addrlen in: the buffer's size; out: the address length (a size_t)
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int getnamePassive(MemorySegment pep, MemorySegment addr, MemorySegment addrlen) {
        return fi_ops_cm.getname.invoke(fi_ops_cm.getname(cmOfPep(pep)), pep, addr, addrlen);
    }

    /**
     * fi_cm(3) fi_connect: {@code ep->cm->connect(ep, addr, param, paramlen)}.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param addr the address buffer (struct sockaddr for tcp)
     * @param param private data, or NULL
     * @param paramlen its length in bytes
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int connect(MemorySegment ep, MemorySegment addr, MemorySegment param, long paramlen) {
        return fi_ops_cm.connect.invoke(fi_ops_cm.connect(cmOfEp(ep)), ep, addr, param, paramlen);
    }

    /**
     * fi_cm(3) fi_accept: {@code ep->cm->accept(ep, param, paramlen)}.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param param private data, or NULL
     * @param paramlen its length in bytes
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int accept(MemorySegment ep, MemorySegment param, long paramlen) {
        return fi_ops_cm.accept.invoke(fi_ops_cm.accept(cmOfEp(ep)), ep, param, paramlen);
    }

    /**
     * fi_cm(3) fi_reject: {@code pep->cm->reject(pep, handle, param, paramlen)}.
     *
     * @param pep the passive endpoint (struct fid_pep *)
     * @param handle the connection request (fi_eq_cm_entry.fid of FI_CONNREQ)
     * @param param private data, or NULL
     * @param paramlen its length in bytes
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int reject(MemorySegment pep, MemorySegment handle, MemorySegment param, long paramlen) {
        return fi_ops_cm.reject.invoke(fi_ops_cm.reject(cmOfPep(pep)), pep, handle, param, paramlen);
    }

    /**
     * fi_cm(3) fi_shutdown: {@code ep->cm->shutdown(ep, flags)}.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param flags the call's flags (fi_endpoint(3), fi_cm(3), fi_eq(3))
     * @return 0 or a count, or a negative FI_E* value
     */
    public static int shutdown(MemorySegment ep, long flags) {
        return fi_ops_cm.shutdown.invoke(fi_ops_cm.shutdown(cmOfEp(ep)), ep, flags);
    }

    /**
     * fi_msg(3) fi_recv: {@code ep->msg->recv(ep, buf, len, desc, src_addr, context)}; on an srx too.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param buf the message buffer
     * @param len its length in bytes
     * @param desc its memory descriptor, or NULL (mr_mode without FI_MR_LOCAL)
     * @param srcAddr FI_ADDR_UNSPEC on a connected endpoint
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long recv(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long srcAddr,
                            MemorySegment context) {
        return fi_ops_msg.recv.invoke(fi_ops_msg.recv(msgOf(ep)), ep, buf, len, desc, srcAddr, context);
    }

    /**
     * fi_msg(3) fi_send: {@code ep->msg->send(ep, buf, len, desc, dest_addr, context)}; no CQ data.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param buf the message buffer
     * @param len its length in bytes
     * @param desc its memory descriptor, or NULL (mr_mode without FI_MR_LOCAL)
     * @param destAddr ignored on a connected endpoint
     * @param context the application context stored in the object, or NULL
     * @return 0 or a negative FI_E* value
     */
    public static long send(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long destAddr,
                            MemorySegment context) {
        return fi_ops_msg.send.invoke(fi_ops_msg.send(msgOf(ep)), ep, buf, len, desc, destAddr, context);
    }

    /**
     * fi_msg(3) fi_senddata: {@code ep->msg->senddata(ep, buf, len, desc, data, dest_addr, context)}.
     *
     * @param ep the endpoint (struct fid_ep *)
     * @param buf the message buffer
     * @param len its length in bytes
     * @param desc its memory descriptor, or NULL (mr_mode without FI_MR_LOCAL)
     * @param data the remote CQ data, 8 bytes (FI_REMOTE_CQ_DATA at the receiver)
     * @param destAddr ignored on a connected endpoint
     * @param context the application context stored in the object, or NULL
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long senddata(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long data,
                                long destAddr, MemorySegment context) {
        return fi_ops_msg.senddata.invoke(fi_ops_msg.senddata(msgOf(ep)), ep, buf, len, desc, data, destAddr, context);
    }

    /**
     * fi_eq(3) fi_eq_read: {@code eq->ops->read(eq, event, buf, len, flags)}; -FI_EAGAIN when empty.
     *
     * @param eq the event queue
     * @param event receives the event type (a uint32_t)
     * @param buf the message buffer
     * @param len its length in bytes
     * @param flags the call's flags (fi_endpoint(3), fi_cm(3), fi_eq(3))
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long eqRead(MemorySegment eq, MemorySegment event, MemorySegment buf, long len, long flags) {
        MemorySegment ops = fid_eq.ops(eq.reinterpret(fid_eq.sizeof())).reinterpret(fi_ops_eq.sizeof());
        return fi_ops_eq.read.invoke(fi_ops_eq.read(ops), eq, event, buf, len, flags);
    }

    /**
     * fi_eq(3) fi_eq_readerr: {@code eq->ops->readerr(eq, buf, flags)}.
     *
     * @param eq the event queue
     * @param errEntry receives the error entry (struct fi_eq_err_entry / fi_cq_err_entry)
     * @param flags the call's flags (fi_endpoint(3), fi_cm(3), fi_eq(3))
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long eqReadErr(MemorySegment eq, MemorySegment errEntry, long flags) {
        MemorySegment ops = fid_eq.ops(eq.reinterpret(fid_eq.sizeof())).reinterpret(fi_ops_eq.sizeof());
        return fi_ops_eq.readerr.invoke(fi_ops_eq.readerr(ops), eq, errEntry, flags);
    }

    /**
     * fi_cq(3) fi_cq_read: {@code cq->ops->read(cq, buf, count)}; -FI_EAGAIN when empty.
     *
     * @param cq the completion queue
     * @param entries room for count entries of the CQ's format
     * @param count the most entries to read
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long cqRead(MemorySegment cq, MemorySegment entries, long count) {
        return fi_ops_cq.read.invoke(fi_ops_cq.read(cqOps(cq)), cq, entries, count);
    }

    /**
     * fi_cq(3) fi_cq_readerr: {@code cq->ops->readerr(cq, buf, flags)}.
     *
     * @param cq the completion queue
     * @param errEntry receives the error entry (struct fi_eq_err_entry / fi_cq_err_entry)
     * @param flags the call's flags (fi_endpoint(3), fi_cm(3), fi_eq(3))
     * @return 0 or a count, or a negative FI_E* value
     */
    public static long cqReadErr(MemorySegment cq, MemorySegment errEntry, long flags) {
        return fi_ops_cq.readerr.invoke(fi_ops_cq.readerr(cqOps(cq)), cq, errEntry, flags);
    }

    /**
     * fi_cq(3) fi_cq_signal: {@code cq->ops->signal(cq)} — wakes a thread blocked on the CQ's wait
     * object; for a CQ bound to a wait set, a thread in fi_wait(3) on that set.
     *
     * @param cq the completion queue (opened with a wait object)
     * @return 0 or a negative FI_E* value
     */
    public static int cqSignal(MemorySegment cq) {
        return fi_ops_cq.signal.invoke(fi_ops_cq.signal(cqOps(cq)), cq);
    }

    private static MemorySegment cqOps(MemorySegment cq) {
        return fid_cq.ops(cq.reinterpret(fid_cq.sizeof())).reinterpret(fi_ops_cq.sizeof());
    }

    private static MemorySegment pollOps(MemorySegment pollset) {
        return fid_poll.ops(pollset.reinterpret(fid_poll.sizeof())).reinterpret(fi_ops_poll.sizeof());
    }

    /**
     * fi_poll(3) fi_poll_open: {@code domain->ops->poll_open(domain, attr, pollset)} — a set of CQs
     * (and counters) that {@link #poll} asks which have completions.
     *
     * @param domain    the domain
     * @param attr      the attributes (struct fi_poll_attr, flags 0)
     * @param pollOut   receives the struct fid_poll * (one pointer)
     * @return 0, or a negative FI_E* value
     */
    public static int pollOpen(MemorySegment domain, MemorySegment attr, MemorySegment pollOut) {
        return fi_ops_domain.poll_open.invoke(fi_ops_domain.poll_open(domainOps(domain)), domain, attr, pollOut);
    }

    /**
     * fi_poll(3) fi_poll_add: {@code pollset->ops->poll_add(pollset, event_fid, flags)}.
     *
     * @param pollset the poll set
     * @param cq      the CQ to add (its fid)
     * @param flags   0
     * @return 0, or a negative FI_E* value
     */
    public static int pollAdd(MemorySegment pollset, MemorySegment cq, long flags) {
        return fi_ops_poll.poll_add.invoke(fi_ops_poll.poll_add(pollOps(pollset)), pollset, cq, flags);
    }

    /**
     * fi_poll(3): {@code pollset->ops->poll(pollset, context, count)} — the contexts (fi_cq_open's
     * context argument) of the CQs that have completions.
     *
     * @param pollset  the poll set
     * @param contexts room for {@code count} pointers
     * @param count    the most contexts to return
     * @return how many contexts were written, or a negative FI_E* value
     */
    public static int poll(MemorySegment pollset, MemorySegment contexts, int count) {
        return fi_ops_poll.poll.invoke(fi_ops_poll.poll(pollOps(pollset)), pollset, contexts, count);
    }

    /**
     * fi_wait_open(3): {@code fabric->ops->wait_open(fabric, attr, waitset)}.
     *
     * @param fabric  the fabric
     * @param attr    the attributes (struct fi_wait_attr: wait_obj, flags 0)
     * @param waitOut receives the struct fid_wait * (one pointer)
     * @return 0, or a negative FI_E* value (-FI_ENOSYS where the provider has no wait sets)
     */
    public static int waitOpen(MemorySegment fabric, MemorySegment attr, MemorySegment waitOut) {
        return fi_ops_fabric.wait_open.invoke(fi_ops_fabric.wait_open(fabricOps(fabric)), fabric, attr, waitOut);
    }

    /**
     * fi_wait(3): {@code waitset->ops->wait(waitset, timeout)} — blocks until an object of the set
     * (a CQ bound to it) has an event, or {@code timeoutMillis}.
     *
     * @param waitset       the wait set
     * @param timeoutMillis the longest wait, ms
     * @return 0 when signaled, -FI_ETIMEDOUT, -FI_EAGAIN (an object has events already), or another
     *         negative FI_E* value
     */
    public static int waitOn(MemorySegment waitset, int timeoutMillis) {
        MemorySegment ops = fid_wait.ops(waitset.reinterpret(fid_wait.sizeof())).reinterpret(fi_ops_wait.sizeof());
        return fi_ops_wait.wait.invoke(fi_ops_wait.wait(ops), waitset, timeoutMillis);
    }
}
