package dev.baton.bootstrap.faults;

import dev.baton.adapters.redis.testing.TestCluster;
import io.lettuce.core.cluster.SlotHash;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Which master of a {@link TestCluster} serves each partition of a queue, as the cluster says at the time of asking.
 *
 * @param masters the master's port, per partition
 */
record Placement(List<Integer> masters) {

    static Placement of(TestCluster cluster, KeyLayout keys) {
        return new Placement(keys.indexes().mapToObj(p -> cluster.masterOf(SlotHash.getSlot(keys.stream(p))))
                .toList());
    }

    /** The partitions the master on {@code port} serves. */
    Set<Integer> partitionsOn(int port) {
        return IntStream.range(0, masters.size()).filter(p -> masters.get(p) == port).boxed()
                .collect(Collectors.toSet());
    }

    /** Whether each of {@code ports} serves at least one partition. */
    boolean covers(Collection<Integer> ports) {
        return masters.containsAll(ports);
    }
}
