package dev.baton.application.testing;

import org.junit.jupiter.api.Nested;

/**
 * Runs the stream transport contracts (the four ports', the isolation record of {@code JobLeases}, the schedules'
 * watermarks and unique jobs) on one transport. An adapter test extends this class and implements
 * {@link TestedTransport}; JUnit finds the suites below as nested classes of the adapter test, each test with a
 * fresh instance of it.
 */
public abstract class TransportContracts implements TestedTransport {

    @Nested
    class Publisher extends JobPublisherContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Leases extends JobLeasesContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Isolation extends JobIsolationContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Maintenance extends QueueMaintenanceContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Administration extends QueueAdministrationContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Schedules extends ScheduleFiresContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }

    @Nested
    class Unique extends UniqueJobsContract {
        @Override
        protected TestedTransport subject() {
            return TransportContracts.this;
        }
    }
}
