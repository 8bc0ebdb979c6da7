package dev.toolscout.springai;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class NoInternalImportTest {
    @Test
    void the_adapter_uses_only_the_engines_public_api() {
        JavaClasses adapter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.toolscout.springai");
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.toolscout..internal..")
                .because("an adapter is a thin module on the engine's public API (ARCHITECTURE.md)")
                .check(adapter);
    }
}
