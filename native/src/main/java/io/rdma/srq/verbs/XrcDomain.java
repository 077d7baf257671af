package io.rdma.srq.verbs;

/**
 * An XRC domain ({@code struct ibv_xrcd}, ibv_open_xrcd(3)). Parent of XRC SRQs created in it.
 */
public interface XrcDomain extends VerbsObject {
}
