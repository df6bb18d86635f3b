package dev.baton.bootstrap.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process spent and holds, from the JVM's management beans and {@code /proc}: CPU time, JIT time, heap
 * peaks, resident set, the machine's load. The most heap kept after a collection is {@link HeapAfterGc}'s.
 */
final class ProcessProbes {
    private static final long MIB = 1024 * 1024;

    private ProcessProbes() {
    }

    /** CPU time of the whole process (every thread: worker, Redis client, GC, JIT), -1 where unknown. */
    static long cpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** Milliseconds the JIT compilers have spent so far (0 where the JVM does not tell). */
    static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Starts the heap pools' peaks afresh, so that {@link #peakHeapMib()} covers what comes after. */
    static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** The heap pools' peaks added up, garbage included: an upper bound of the heap the run needed. */
    static double peakHeapMib() {
        long bytes = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        return mib(bytes);
    }

    /** Bytes in MiB, to one decimal. */
    static double mib(long bytes) {
        return Math.round(bytes * 10.0 / MIB) / 10.0;
    }

    /** A {@code /proc/self/status} size ({@code VmHWM}, {@code VmRSS}) in MiB, or -1 where there is none. */
    static double status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field + ":")) {
                    long kib = Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                    return Math.round(kib * 10.0 / 1024) / 10.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** {@code /proc/loadavg}'s 1, 5 and 15 minute load averages, or empty where there is none. */
    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
