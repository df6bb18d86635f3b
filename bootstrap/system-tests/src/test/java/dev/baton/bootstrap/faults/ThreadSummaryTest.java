package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ThreadSummaryTest {
    private static final String DUMP = """
            2026-12-04 14:11:38
            Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, emulated-client, sharing):

            "main" #1 prio=5 os_prio=0 cpu=2260.26ms elapsed=62.74s tid=0x00007f3348017aa0 nid=0x2ecc waiting
               java.lang.Thread.State: WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
            \tat dev.baton.adapters.postgres.Migrations.apply(Migrations.java:77)

            "baton-w3-fetch-1" #30 daemon prio=5 os_prio=0 cpu=300.01ms elapsed=60.12s tid=0x1 nid=0x2f01 waiting
               java.lang.Thread.State: WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
            \t- parking to wait for  <0x00000000f0a1b2c3> (a java.util.concurrent.Semaphore$FairSync)
            \tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)
            \tat dev.baton.application.service.worker.InFlight.takeFreeSlots(InFlight.java:92)
            \tat dev.baton.application.service.worker.Fetcher.run(Fetcher.java:104)

            "baton-w3-job-1" #41 daemon prio=5 os_prio=0 cpu=12.00ms elapsed=10.00s tid=0x2 nid=0x2f09 runnable
               java.lang.Thread.State: RUNNABLE
            \tat dev.baton.bootstrap.demo.OrdersHandler.handle(OrdersHandler.java:52)

            "baton-w3-loop-1" #31 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x3 nid=0x2f02 waiting
               java.lang.Thread.State: TIMED_WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)

            "lettuce-epollEventLoop-4-1" #20 daemon prio=5 os_prio=0 cpu=50.00ms elapsed=61.00s tid=0x4 runnable
               java.lang.Thread.State: RUNNABLE
            \tat io.netty.channel.epoll.Native.epollWait(Native Method)
            """;

    @Nested
    class TheMainThreadAndEachBatonThread {
        @Test
        void isALineWithItsStateAndTheFrameItWaitsIn() {
            assertThat(ThreadSummary.of(DUMP)).containsExactly(
                    "main WAITING in dev.baton.adapters.postgres.Migrations.apply < jdk.internal.misc.Unsafe.park",
                    "baton-w3-fetch-1 WAITING in dev.baton.application.service.worker.InFlight.takeFreeSlots"
                            + " < jdk.internal.misc.Unsafe.park",
                    "baton-w3-job-1 RUNNABLE in dev.baton.bootstrap.demo.OrdersHandler.handle",
                    "baton-w3-loop-1 TIMED_WAITING in jdk.internal.misc.Unsafe.park");
        }
    }

    @Test
    void aDumpThatDidNotComeSummarizesToNothing() {
        assertThat(ThreadSummary.of("12345: Unable to open socket file: target process not responding")).isEmpty();
    }
}
