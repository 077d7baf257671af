package io.rdma.srq.it.docs;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code ```java} block of the project's READMEs and of docs/*.md compiles against the api, the verbs layer and
 * the Jakarta EE APIs, so a reader who copies one gets code that builds. A block that declares
 * classes is compiled as those classes (each nested in a holder, so several may be public); any other
 * block as the body of a method that may throw. Only imports are supplied (below); everything else a
 * snippet uses it must declare itself.
 */
class ReadmeSnippetsTest {
    private static final List<String> READMES = List.of("README.md", "deployment/README.md", "it-tests/lab/README.md");
    private static final Pattern BLOCK = Pattern.compile("(?m)^```java\\n(.*?)^```", Pattern.DOTALL);
    private static final Pattern TOP_CLASS = Pattern.compile("(?m)^(public )?(class|record|interface|enum) ");
    private static final String IMPORTS = """
            import io.rdma.srq.api.*;
            import io.rdma.srq.verbs.*;
            import jakarta.annotation.Resource;
            import jakarta.ejb.*;
            import jakarta.enterprise.context.ApplicationScoped;
            import jakarta.enterprise.event.Observes;
            import jakarta.inject.Inject;
            import java.net.InetSocketAddress;
            import java.nio.ByteBuffer;
            import java.time.Duration;
            import java.util.EnumSet;
            import java.util.List;
            import java.util.concurrent.CompletableFuture;
            """;

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        return Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("api")) ? dir : dir.getParent();
    }

    @TestFactory
    List<DynamicTest> everyJavaBlockCompiles() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        List<String> documents = new ArrayList<>(READMES);
        try (var docs = Files.list(root().resolve("docs"))) {
            docs.map(p -> "docs/" + p.getFileName()).filter(n -> n.endsWith(".md")).sorted().forEach(documents::add);
        }
        for (String readme : documents) {
            Path file = root().resolve(readme);
            assertTrue(Files.exists(file), readme);
            Matcher m = BLOCK.matcher(Files.readString(file));
            int n = 0;
            while (m.find()) {
                int index = ++n;
                String code = m.group(1);
                int line = (int) Files.readString(file).substring(0, m.start()).lines().count() + 1;
                tests.add(DynamicTest.dynamicTest(readme + " block " + index + " (line " + line + ")",
                        () -> compiles(readme, index, code)));
            }
        }
        assertFalse(tests.isEmpty(), "the READMEs have java blocks (README.md's usage example at least)");
        return tests;
    }

    private static void compiles(String readme, int index, String code) throws IOException {
        String holder = "Snippet" + index;
        String body = TOP_CLASS.matcher(code).find()
                ? TOP_CLASS.matcher(code).replaceAll(r -> "public static " + r.group(2) + " ")
                : "void run() throws Exception {\n" + code + "\n}";
        String source = "package snippets;\n" + IMPORTS + "@SuppressWarnings(\"all\") public class " + holder + " {\n"
                + body + "\n}\n";
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("snippet");
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///snippets/" + holder + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source;
                }
            };
            boolean ok = javac.getTask(null, files, diagnostics,
                    List.of("-proc:none", "-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
                    null, List.of(unit)).call();
            StringBuilder errors = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    errors.append("\n  snippet line ").append(d.getLineNumber() - IMPORTS.lines().count() - 2)
                            .append(": ").append(d.getMessage(Locale.ROOT));
                }
            }
            assertTrue(ok, readme + " java block " + index + " does not compile:" + errors);
        }
    }
}
