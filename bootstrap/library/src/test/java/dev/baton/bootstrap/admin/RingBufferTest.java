package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RingBufferTest {

    @Test
    void holdsTheLastItemsOldestFirst() {
        RingBuffer<Integer> buffer = new RingBuffer<>(3);
        assertThat(buffer.snapshot()).isEmpty();
        buffer.add(1);
        buffer.add(2);
        assertThat(buffer.snapshot()).containsExactly(1, 2);

        IntStream.rangeClosed(3, 7).forEach(buffer::add);

        assertThat(buffer.snapshot()).containsExactly(5, 6, 7);
    }

    @Test
    void aSnapshotIsACopy() {
        RingBuffer<Integer> buffer = new RingBuffer<>(2);
        buffer.add(1);
        var snapshot = buffer.snapshot();
        buffer.add(2);
        assertThat(snapshot).containsExactly(1);
    }

    @Test
    void needsRoomForOne() {
        assertThatThrownBy(() -> new RingBuffer<>(0)).hasMessageContaining("at least 1");
    }
}
