public class Hot implements java.util.function.LongUnaryOperator {
    public long applyAsLong(long x) { long r = x; for (int i = 0; i < 8; i++) r = r * 31 + (r >>> 7) + i; return r; }
}
