package dev.baton.bootstrap.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The most heap in use just after a garbage collection, while open: what the process kept, not the garbage it had
 * not collected yet. The pools' peaks ({@code peak_heap_mib}) add up garbage and peaks of different moments, and can
 * read above {@code -Xmx}; this cannot. The JVM reports each collection on a service thread of its own.
 */
final class HeapAfterGc implements AutoCloseable {
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    private final AtomicLong maxBytes = new AtomicLong();
    private final NotificationListener listener = this::collected;
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    HeapAfterGc() {
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    /** The most bytes of heap in use after any collection so far; 0 before the first. */
    long maxBytes() {
        return maxBytes.get();
    }

    private void collected(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                .from((CompositeData) notification.getUserData()).getGcInfo().getMemoryUsageAfterGc();
        long used = after.entrySet().stream()
                .filter(pool -> heapPools.contains(pool.getKey()))
                .mapToLong(pool -> pool.getValue().getUsed())
                .sum();
        maxBytes.accumulateAndGet(used, Math::max);
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // cannot happen: it was added in the constructor
            }
        }
    }
}
