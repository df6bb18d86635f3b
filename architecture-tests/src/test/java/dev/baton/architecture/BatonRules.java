package dev.baton.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.conditions.ArchConditions;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import javax.sql.DataSource;

/**
 * The shape of Baton, as rules that fail the build when it breaks. {@code failOnEmptyShould} stays on (ArchUnit's
 * default), so a rule whose subject matches no class fails instead of passing silently.
 */
final class BatonRules {
    static final String DOMAIN = "dev.baton.domain..";
    static final String APPLICATION = "dev.baton.application..";
    static final String REDIS_ADAPTER = "dev.baton.adapters.redis..";
    static final String POSTGRES_ADAPTER = "dev.baton.adapters.postgres..";
    static final String BOOTSTRAP = "dev.baton.bootstrap..";
    static final String CLI = "dev.baton.bootstrap.cli..";
    static final String BENCH = "dev.baton.bootstrap.bench..";
    static final String WORKER = "dev.baton.application.service.worker..";
    /** Demo handlers are user code: like users' handlers, they write through the ledger's Jdbi handle. */
    static final String DEMO_HANDLERS = "dev.baton.bootstrap.demo..";
    static final String TRACING = "dev.baton.bootstrap.tracing..";
    /** Spring Boot's auto-configuration: Spring is an optional dependency, so nothing else may need it. */
    static final String SPRING = "dev.baton.bootstrap.spring..";
    /** JSON on the application's Jackson, 3 or 2 (docs/SPRING.md#jackson). */
    static final String JSON = "dev.baton.bootstrap.json..";

    private BatonRules() {
    }

    static final ArchRule MODULE_LAYERING = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Domain").definedBy(DOMAIN)
            .layer("Application").definedBy(APPLICATION)
            .layer("RedisAdapter").definedBy(REDIS_ADAPTER)
            .layer("PostgresAdapter").definedBy(POSTGRES_ADAPTER)
            .layer("Bootstrap").definedBy(BOOTSTRAP)
            .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
            .whereLayer("RedisAdapter").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("PostgresAdapter").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Application").mayOnlyBeAccessedByLayers("RedisAdapter", "PostgresAdapter", "Bootstrap")
            .whereLayer("Domain")
            .mayOnlyBeAccessedByLayers("Application", "RedisAdapter", "PostgresAdapter", "Bootstrap")
            .as("modules depend inwards only: bootstrap -> adapters -> application -> domain, adapters independent");

    static final ArchRule DOMAIN_IS_PURE_JAVA = classes().that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN)
            .as("the domain depends on nothing but the JDK");

    static final ArchRule APPLICATION_DEPENDS_ON_DOMAIN_AND_SLF4J_ONLY = classes().that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, APPLICATION, "org.slf4j..")
            .as("the application depends only on the domain, the JDK and SLF4J");

    static final ArchRule LETTUCE_ONLY_IN_REDIS_ADAPTER = noClasses().that().resideOutsideOfPackage(REDIS_ADAPTER)
            .and().resideInAPackage("dev.baton..")
            .should().dependOnClassesThat().resideInAnyPackage("io.lettuce..")
            .as("Lettuce is used only in the Redis adapter");

    static final ArchRule JDBI_AND_JDBC_ONLY_IN_POSTGRES_ADAPTER = noClasses()
            // the Spring package hands the ledger's JDBC connection to Spring's JdbcTemplate, as a handler would
            .that().resideOutsideOfPackages(POSTGRES_ADAPTER, DEMO_HANDLERS, SPRING)
            .and().resideInAPackage("dev.baton..")
            // an embedding application hands its pool over as a DataSource: passing it on is not using JDBC
            .should().dependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("org.jdbi..", "java.sql..",
                    "javax.sql..", "org.postgresql..", "com.zaxxer..")
                    .and(DescribedPredicate.not(JavaClass.Predicates.equivalentTo(DataSource.class))))
            .as("Jdbi, JDBC and the PostgreSQL driver are used only in the Postgres adapter (and demo handlers, and"
                    + " the Spring binding of the ledger's connection)");

    static final ArchRule SPRING_ONLY_IN_ITS_PACKAGE = noClasses().that().resideOutsideOfPackage(SPRING)
            .and().resideInAPackage("dev.baton..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", SPRING)
            .as("Spring, an optional dependency, is used only in dev.baton.bootstrap.spring, which nothing else uses:"
                    + " a service without Spring never loads a Spring type");

    static final ArchRule JACKSON_ONLY_IN_JSON = noClasses().that().resideOutsideOfPackages(JSON, DEMO_HANDLERS)
            .and().resideInAPackage("dev.baton..")
            .should().dependOnClassesThat().resideInAnyPackage("com.fasterxml.jackson.core..",
                    "com.fasterxml.jackson.databind..", "tools.jackson..")
            .as("Jackson is used only in dev.baton.bootstrap.json, through whichever of Jackson 3 and 2 the"
                    + " application has: a class naming one elsewhere fails to load where only the other is (and the"
                    + " demo handlers, user code of the CLI's)");

    /**
     * The library wires itself by hand: a host application gets no second dependency-injection container. Guice (with
     * the injection annotations) wires the CLI's world, which picocli parses: both stay in the CLI's packages.
     */
    static final ArchRule GUICE_AND_PICOCLI_ONLY_IN_THE_CLI = noClasses()
            .that().resideOutsideOfPackages(CLI, DEMO_HANDLERS, BENCH)
            .and().resideInAPackage("dev.baton..")
            .should().dependOnClassesThat().resideInAnyPackage("com.google.inject..", "jakarta.inject..",
                    "javax.inject..", "org.aopalliance..", "picocli..")
            .as("Guice and picocli are used only in the CLI (dev.baton.bootstrap.cli, .demo, .bench)");

    static final ArchRule NO_GUAVA = noClasses().that().resideInAPackage("dev.baton..")
            .should().dependOnClassesThat().resideInAPackage("com.google.common..")
            .as("Guava is used nowhere: not even the CLI, whose Guice brings it, names it");

    /**
     * OpenTelemetry is an optional dependency: a class that names it outside the tracing package could fail to load
     * in a service without it. The one exception is {@code BatonBuilder}, whose {@code openTelemetry(...)} takes
     * the {@code OpenTelemetry} the application hands over, and names nothing else of it.
     */
    static final ArchRule OPENTELEMETRY_ONLY_IN_TRACING = classes().that().resideInAPackage("dev.baton..")
            .should(ArchConditions.onlyHaveDependenciesWhere(new DescribedPredicate<Dependency>(
                    "OpenTelemetry is named only in " + TRACING
                    + ", and in BatonBuilder as the type of openTelemetry(...)'s parameter") {
                @Override
                public boolean test(Dependency dependency) {
                    JavaClass target = dependency.getTargetClass();
                    if (!target.getPackageName().startsWith("io.opentelemetry")) {
                        return true;
                    }
                    JavaClass origin = dependency.getOriginClass();
                    return origin.getPackageName().startsWith(TRACING.replace("..", ""))
                            || origin.getName().equals("dev.baton.bootstrap.BatonBuilder")
                            && target.getName().equals("io.opentelemetry.api.OpenTelemetry");
                }
            }))
            .as("OpenTelemetry is used only in dev.baton.bootstrap.tracing (and handed over by BatonBuilder)");

    static final ArchRule PORTS_IN_AND_OUT_INDEPENDENT = noClasses().that().resideInAPackage("..port.in..")
            .should().dependOnClassesThat().resideInAPackage("..port.out..")
            .as("inbound ports do not depend on outbound ports");

    static final ArchRule PORTS_OUT_AND_IN_INDEPENDENT = noClasses().that().resideInAPackage("..port.out..")
            .should().dependOnClassesThat().resideInAPackage("..port.in..")
            .as("outbound ports do not depend on inbound ports");

    /** Ten: more, and a port serves more than one audience (the stream transport had 18 and four of them). */
    static final int MAX_PORT_METHODS = 10;

    static final ArchRule OUTBOUND_PORTS_ARE_SMALL = classes().that().resideInAPackage("..port.out..")
            .and().areInterfaces()
            .should(haveAtMostMethods(MAX_PORT_METHODS))
            .as("an outbound port has at most " + MAX_PORT_METHODS + " methods, its super-interfaces' included: split"
                    + " a larger one by who uses it");

    /** Counts the instance methods a type has, inherited ones included, so a composite cannot hide its width. */
    private static ArchCondition<JavaClass> haveAtMostMethods(int max) {
        return new ArchCondition<>("have at most " + max + " methods") {
            @Override
            public void check(JavaClass port, ConditionEvents events) {
                long methods = port.getAllMethods().stream()
                        .filter(method -> !method.getModifiers().contains(JavaModifier.STATIC))
                        .filter(method -> !method.getOwner().isEquivalentTo(Object.class))
                        .map(method -> method.getName() + method.getRawParameterTypes())
                        .distinct()
                        .count();
                if (methods > max) {
                    events.add(SimpleConditionEvent.violated(port, port.getName() + " has " + methods + " methods"));
                }
            }
        };
    }

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.baton.(**)").should().beFreeOfCycles()
            .as("no package cycles");

    static final ArchRule NO_CLOCK_READS_IN_CORE = noClasses().that().resideInAnyPackage(DOMAIN, APPLICATION)
            .should().callMethod(Instant.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().callMethod(LocalDate.class, "now")
            .orShould().callMethod(LocalTime.class, "now")
            .orShould().callMethod(ZonedDateTime.class, "now")
            .orShould().callMethod(OffsetDateTime.class, "now")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .as("time in the domain and application comes from an injected Clock");

    static final ArchRule NO_CONSOLE_OUTSIDE_CLI = noClasses().that().resideOutsideOfPackage(CLI)
            .and().resideInAPackage("dev.baton..")
            .should().accessField(System.class, "out")
            .orShould().accessField(System.class, "err")
            .orShould().callMethod(Throwable.class, "printStackTrace")
            .as("only the CLI writes to the console; everything else logs");

    static final ArchRule ONE_PUBLIC_ENTRY_POINT_PER_ADAPTER = classes()
            .that().resideInAnyPackage(REDIS_ADAPTER, POSTGRES_ADAPTER)
            .and().areTopLevelClasses().and().arePublic()
            .and().resideOutsideOfPackages("..testing..")
            .should().haveSimpleNameEndingWith("Adapter")
            .andShould().haveModifier(JavaModifier.FINAL)
            .as("each adapter module has one public entry point, a final *Adapter; the rest is package-private");

    static final ArchRule SERVICES_ARE_FINAL = classes().that().resideInAPackage("dev.baton.application.service..")
            .and().haveSimpleNameEndingWith("Service")
            .should().haveModifier(JavaModifier.FINAL)
            .as("services are final and composed, not extended");

    static final ArchRule WORKER_ROOMS_ARE_PACKAGE_PRIVATE = classes().that().resideInAPackage(WORKER)
            .and().areTopLevelClasses().and().arePublic()
            .should().haveSimpleName("WorkerService").orShould().haveSimpleName("WorkerSettings")
            .orShould().haveSimpleName("InlineWorker")
            .as("the worker's rooms are package-private: only WorkerService, its InlineWorker and WorkerSettings are"
                    + " public");

    static final ArchRule LOOPS_DO_NOT_DEPEND_ON_THE_FETCHER = noClasses().that().resideInAPackage(WORKER)
            .and().haveSimpleNameEndingWith("Loop")
            .should().dependOnClassesThat().haveSimpleName("Fetcher")
            .as("the worker's background loops do not depend on its fetcher: the fetcher calls them, on its thread");

    static final ArchRule WORKER_USES_ITS_OWN_TRANSPORT_PORTS = noClasses().that().resideInAPackage(WORKER)
            .should().dependOnClassesThat()
            .belongToAnyOf(JobPublisher.class, QueueAdministration.class, QueueOverview.class)
            .as("the worker reaches the transport through JobLeases and QueueMaintenance only");

    static List<ArchRule> all() {
        return List.of(MODULE_LAYERING, DOMAIN_IS_PURE_JAVA, APPLICATION_DEPENDS_ON_DOMAIN_AND_SLF4J_ONLY,
                LETTUCE_ONLY_IN_REDIS_ADAPTER, JDBI_AND_JDBC_ONLY_IN_POSTGRES_ADAPTER,
                SPRING_ONLY_IN_ITS_PACKAGE, JACKSON_ONLY_IN_JSON, GUICE_AND_PICOCLI_ONLY_IN_THE_CLI, NO_GUAVA,
                OPENTELEMETRY_ONLY_IN_TRACING,
                PORTS_IN_AND_OUT_INDEPENDENT, PORTS_OUT_AND_IN_INDEPENDENT,
                NO_PACKAGE_CYCLES, NO_CLOCK_READS_IN_CORE, NO_CONSOLE_OUTSIDE_CLI, ONE_PUBLIC_ENTRY_POINT_PER_ADAPTER,
                SERVICES_ARE_FINAL, WORKER_ROOMS_ARE_PACKAGE_PRIVATE, LOOPS_DO_NOT_DEPEND_ON_THE_FETCHER,
                WORKER_USES_ITS_OWN_TRANSPORT_PORTS, OUTBOUND_PORTS_ARE_SMALL);
    }
}
