package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.require;

/** The numbers of one partition of a partitioned queue (docs/SCALING.md). */
public record PartitionStats(int index, long length, long pending) {
    public PartitionStats {
        require(index >= 0, "partition index must not be negative");
        require(length >= 0 && pending >= 0, "counts must not be negative");
    }
}
