package dev.toolscout.springai;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NoInternalImportTest {
    @Test
    void the_adapter_uses_only_the_engines_public_api() {
        // this module's main classes only (the class path is not scanned)
        JavaClasses adapter = new ClassFileImporter().importPath(Path.of("target/classes"));
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.toolscout..internal..")
                .because("an adapter is a thin module on the engine's public API (ARCHITECTURE.md)")
                .check(adapter);
    }
}
