package dev.baton.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HeapAfterGcTest {
    private static final int KEPT_BYTES = 64 * 1024 * 1024;
    private static final Duration GC_REPORTED = Duration.ofSeconds(10);

    @Test
    void countsWhatSurvivesACollectionAndNeverMoreThanTheHeapHolds() {
        try (HeapAfterGc heap = new HeapAfterGc()) {
            long before = afterCollecting(heap);
            byte[] kept = new byte[KEPT_BYTES];

            System.gc();

            await().atMost(GC_REPORTED).untilAsserted(() ->
                    assertThat(heap.maxBytes()).isGreaterThanOrEqualTo(before + KEPT_BYTES / 2));
            assertThat(heap.maxBytes()).isLessThanOrEqualTo(Runtime.getRuntime().maxMemory());
            assertThat(kept).hasSize(KEPT_BYTES); // alive through the collection
        }
    }

    @Test
    void hearsNoCollectionOnceClosed() {
        HeapAfterGc closed = new HeapAfterGc();
        closed.close();
        // a listener added later hears each collection after the closed one would have
        try (HeapAfterGc witness = new HeapAfterGc()) {
            afterCollecting(witness);

            assertThat(closed.maxBytes()).isZero();
        }
    }

    /** Collects and waits until {@code heap} heard of it; @return what it measured. */
    private static long afterCollecting(HeapAfterGc heap) {
        System.gc();
        await().atMost(GC_REPORTED).until(() -> heap.maxBytes() > 0);
        return heap.maxBytes();
    }
}
