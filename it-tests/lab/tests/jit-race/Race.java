// Reproducer for jit-race.sh: each round defines a fresh hidden copy of Hot, and 3 threads call it
// until C2 replaces the C1 code, so HotSpot patches the entry of a C1 nmethod other threads run.
import java.lang.invoke.MethodHandles;
import java.util.concurrent.*;
import java.util.function.LongUnaryOperator;
public class Race {
    public static void main(String[] a) throws Throwable {
        byte[] bytes = Race.class.getResourceAsStream("/Hot.class").readAllBytes();
        long end = System.nanoTime() + Long.parseLong(a[0]) * 1_000_000_000L;
        int threads = 3, classes = 0; long sink = 0;
        ExecutorService ex = Executors.newFixedThreadPool(threads);
        while (System.nanoTime() < end) {
            LongUnaryOperator op = (LongUnaryOperator) MethodHandles.lookup().defineHiddenClass(bytes, true)
                    .lookupClass().getDeclaredConstructor().newInstance();
            CyclicBarrier go = new CyclicBarrier(threads);
            Future<?>[] fs = new Future<?>[threads];
            for (int t = 0; t < threads; t++) fs[t] = ex.submit(() -> { go.await(); long s = 0; for (int i = 0; i < 30000; i++) s += op.applyAsLong(i); return s; });
            for (Future<?> f : fs) sink += (Long) f.get();
            classes++;
        }
        ex.shutdown(); System.out.println("ok classes=" + classes + " " + sink);
    }
}
