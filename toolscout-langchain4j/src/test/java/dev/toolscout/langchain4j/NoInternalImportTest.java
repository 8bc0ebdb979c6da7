package dev.toolscout.langchain4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The adapter is built on the engine's public API only (ARCHITECTURE.md: framework adapters). */
class NoInternalImportTest {
    @Test
    void the_adapter_imports_no_internal_package_of_toolscout() throws Exception {
        // the module's own classes (what they reference is named by the imported classes themselves, no need to
        // scan the class path for it)
        Path classes = Path.of(ToolScoutToolProvider.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        JavaClasses adapter = new ClassFileImporter().importPath(classes);
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
