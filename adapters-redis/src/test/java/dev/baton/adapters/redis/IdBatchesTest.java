package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IdBatchesTest {

    @Test
    void idsGoInFullBatchesAndOneRestInTheirOrder() {
        List<Integer> ids = IntStream.range(0, 2 * IdBatches.SIZE + 1).boxed().toList();

        List<List<Integer>> batches = IdBatches.of(ids);

        assertThat(batches).map(List::size).containsExactly(IdBatches.SIZE, IdBatches.SIZE, 1);
        assertThat(batches.stream().flatMap(List::stream)).containsExactlyElementsOf(ids);
    }

    @Test
    void exactlyOneBatchFitsOneCallAndNoIdsMakeNoCall() {
        assertThat(IdBatches.of(IntStream.range(0, IdBatches.SIZE).boxed().toList())).hasSize(1);
        assertThat(IdBatches.of(List.of())).isEmpty();
    }
}
