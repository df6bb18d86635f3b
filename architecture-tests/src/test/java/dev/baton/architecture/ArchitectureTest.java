package dev.baton.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Checks every rule of {@link BatonRules} against Baton's production classes, all modules together. */
class ArchitectureTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = ProductionClasses.ALL;
    }

    static Stream<ArchRule> rules() {
        return BatonRules.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void productionCodeFollows(ArchRule rule) {
        rule.check(production);
    }

    /** Guards against a vacuous pass: every module's classes must really be in the import. */
    @Test
    void importSeesEveryModule() {
        Stream.of("dev.baton.domain", "dev.baton.application.port.in", "dev.baton.application.port.out",
                        "dev.baton.application.service", "dev.baton.application.service.worker",
                        "dev.baton.adapters.redis", "dev.baton.adapters.postgres",
                        "dev.baton.bootstrap", "dev.baton.bootstrap.wiring", "dev.baton.bootstrap.spring",
                        "dev.baton.bootstrap.cli", "dev.baton.bootstrap.demo", "dev.baton.bootstrap.bench")
                .forEach(pkg -> assertThat(production.stream().map(JavaClass::getPackageName).distinct())
                        .as("classes imported from %s", pkg)
                        .anyMatch(name -> name.startsWith(pkg)));
    }

    @Test
    void noFixtureLeaksIntoProduction() {
        assertThat(production.stream().map(JavaClass::getName)).noneMatch(name -> name.contains("archfixture"));
    }
}
