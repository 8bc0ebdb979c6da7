package dev.toolscout.langchain4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The adapter is built on the engine's public API only (ARCHITECTURE.md: framework adapters). */
class NoInternalImportTest {
    @Test
    void the_adapter_imports_no_internal_package_of_toolscout() {
        JavaClasses adapter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.toolscout.langchain4j");
        noClasses()
                .that()
                .resideInAPackage("dev.toolscout.langchain4j..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.toolscout..internal..")
                // the rule must be checked against the adapter's classes, not pass on none
                .allowEmptyShould(false)
                .check(adapter);
    }
}
