package dev.baton.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.baton.adapters.postgres.archfixture.PostgresAdapterPrinting;
import dev.baton.adapters.redis.archfixture.PublicRedisHelper;
import dev.baton.adapters.redis.archfixture.RedisAdapterUsingJdbi;
import dev.baton.adapters.redis.archfixture.RedisAdapterUsingPostgresAdapter;
import dev.baton.application.archfixture.ApplicationReadingTheClock;
import dev.baton.application.archfixture.ApplicationUsingGuice;
import dev.baton.application.archfixture.ApplicationUsingLettuce;
import dev.baton.application.archfixture.cycle.a.CycleA;
import dev.baton.application.archfixture.cycle.b.CycleB;
import dev.baton.application.port.in.archfixture.InboundPortUsingOutboundPort;
import dev.baton.application.port.out.archfixture.NarrowOutboundPort;
import dev.baton.application.port.out.archfixture.OutboundPortUsingInboundPort;
import dev.baton.application.port.out.archfixture.WideOutboundPort;
import dev.baton.application.service.archfixture.ExtensibleService;
import dev.baton.application.service.worker.archfixture.Fetcher;
import dev.baton.application.service.worker.archfixture.PublicRoom;
import dev.baton.application.service.worker.archfixture.ReclaimingLoop;
import dev.baton.application.service.worker.archfixture.WorkerUsingTheAdministration;
import dev.baton.bootstrap.archfixture.AdminUsingJackson;
import dev.baton.bootstrap.archfixture.BootstrapUsingSpring;
import dev.baton.bootstrap.archfixture.LibraryUsingInjectAnnotations;
import dev.baton.bootstrap.archfixture.MetricsUsingOpenTelemetry;
import dev.baton.bootstrap.cli.archfixture.CliUsingGuava;
import dev.baton.bootstrap.wiring.archfixture.WiringUsingGuice;
import dev.baton.domain.archfixture.DomainUsingApplication;
import dev.baton.domain.archfixture.DomainUsingSlf4j;
import org.junit.jupiter.api.Test;

/**
 * Proves that each rule bites: a deliberately broken class (in {@code archfixture} packages of this module's test
 * sources, never part of the production import) makes the rule report a violation.
 */
class RulesBiteTest {

    @Test
    void layeringBitesOnDomainUsingApplication() {
        assertViolated(BatonRules.MODULE_LAYERING, DomainUsingApplication.class);
    }

    @Test
    void layeringBitesOnAdaptersDependingOnEachOther() {
        assertViolated(BatonRules.MODULE_LAYERING, RedisAdapterUsingPostgresAdapter.class);
    }

    @Test
    void domainPurityBites() {
        assertViolated(BatonRules.DOMAIN_IS_PURE_JAVA, DomainUsingSlf4j.class);
    }

    @Test
    void applicationDependenciesBite() {
        assertViolated(BatonRules.APPLICATION_DEPENDS_ON_DOMAIN_AND_SLF4J_ONLY, ApplicationUsingLettuce.class);
    }

    @Test
    void lettuceConfinementBites() {
        assertViolated(BatonRules.LETTUCE_ONLY_IN_REDIS_ADAPTER, ApplicationUsingLettuce.class);
    }

    @Test
    void jdbiConfinementBites() {
        assertViolated(BatonRules.JDBI_AND_JDBC_ONLY_IN_POSTGRES_ADAPTER, RedisAdapterUsingJdbi.class);
    }

    @Test
    void springConfinementBites() {
        assertViolated(BatonRules.SPRING_ONLY_IN_ITS_PACKAGE, BootstrapUsingSpring.class);
    }

    @Test
    void jacksonConfinementBites() {
        assertViolated(BatonRules.JACKSON_ONLY_IN_JSON, AdminUsingJackson.class);
    }

    @Test
    void guiceConfinementBitesInTheCoreAndInTheLibrary() {
        assertViolated(BatonRules.GUICE_AND_PICOCLI_ONLY_IN_THE_CLI, ApplicationUsingGuice.class);
        assertViolated(BatonRules.GUICE_AND_PICOCLI_ONLY_IN_THE_CLI, WiringUsingGuice.class);
        assertViolated(BatonRules.GUICE_AND_PICOCLI_ONLY_IN_THE_CLI, LibraryUsingInjectAnnotations.class);
    }

    @Test
    void guavaRuleBitesEvenInTheCli() {
        assertViolated(BatonRules.NO_GUAVA, CliUsingGuava.class);
    }

    @Test
    void openTelemetryRuleBitesOutsideTracingEvenForTheBuildersTypes() {
        assertViolated(BatonRules.OPENTELEMETRY_ONLY_IN_TRACING, MetricsUsingOpenTelemetry.class);
    }

    @Test
    void portIndependenceBitesBothWays() {
        assertViolated(BatonRules.PORTS_IN_AND_OUT_INDEPENDENT, InboundPortUsingOutboundPort.class);
        assertViolated(BatonRules.PORTS_OUT_AND_IN_INDEPENDENT, OutboundPortUsingInboundPort.class);
    }

    @Test
    void cycleRuleBites() {
        assertViolated(BatonRules.NO_PACKAGE_CYCLES, CycleA.class, CycleB.class);
    }

    @Test
    void clockRuleBites() {
        assertViolated(BatonRules.NO_CLOCK_READS_IN_CORE, ApplicationReadingTheClock.class);
    }

    @Test
    void consoleRuleBites() {
        assertViolated(BatonRules.NO_CONSOLE_OUTSIDE_CLI, PostgresAdapterPrinting.class);
    }

    @Test
    void adapterEntryPointRuleBites() {
        assertViolated(BatonRules.ONE_PUBLIC_ENTRY_POINT_PER_ADAPTER, PublicRedisHelper.class);
    }

    @Test
    void finalServiceRuleBites() {
        assertViolated(BatonRules.SERVICES_ARE_FINAL, ExtensibleService.class);
    }

    @Test
    void workerRoomRuleBites() {
        assertViolated(BatonRules.WORKER_ROOMS_ARE_PACKAGE_PRIVATE, PublicRoom.class);
    }

    @Test
    void loopsAndFetcherRuleBites() {
        assertViolated(BatonRules.LOOPS_DO_NOT_DEPEND_ON_THE_FETCHER, ReclaimingLoop.class, Fetcher.class);
    }

    @Test
    void workerTransportPortsRuleBites() {
        assertViolated(BatonRules.WORKER_USES_ITS_OWN_TRANSPORT_PORTS, WorkerUsingTheAdministration.class);
    }

    @Test
    void portWidthBitesOnAPortWithElevenMethodsHalfOfThemInherited() {
        assertViolated(BatonRules.OUTBOUND_PORTS_ARE_SMALL, WideOutboundPort.class, NarrowOutboundPort.class);
    }

    private static void assertViolated(ArchRule rule, Class<?>... broken) {
        JavaClasses classes = new ClassFileImporter().importClasses(broken);
        EvaluationResult result = rule.evaluate(classes);
        assertThat(result.hasViolation())
                .as("rule '%s' must report a violation for %s", rule.getDescription(), classes)
                .isTrue();
    }
}
