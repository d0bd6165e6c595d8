package dev.schedlab.engine.plugin;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Refuses, before it is loaded, a plugin whose class files refer to what a plugin must never do, in
 * the spirit of the BPF verifier that stands before a sched_ext scheduler: end the JVM, start
 * threads or processes, break encapsulation by reflection ({@code setAccessible}, {@code Unsafe}),
 * or read the wall clock (results would no longer be deterministic). It reads the constant pool of
 * every class (in {@code classes/} and in the jars of {@code lib/}) for the classes and members
 * referred to; it does not run or load anything. Code reached only by reflection on names it builds
 * at run time escapes it: in-process plugins remain trusted code (docs/plugin-safety.md).
 */
final class PluginCodeCheck {
  /** A forbidden use: a class, or a member of it ({@code null} member: any use of the class). */
  private record Rule(String owner, @Nullable String member, String why) {}

  private static final List<Rule> RULES =
      List.of(
          new Rule("java/lang/System", "exit", "ends the JVM"),
          new Rule("java/lang/Runtime", "exit", "ends the JVM"),
          new Rule("java/lang/Runtime", "halt", "ends the JVM"),
          new Rule("java/lang/Runtime", "exec", "starts processes"),
          new Rule("java/lang/ProcessBuilder", null, "starts processes"),
          new Rule("java/lang/Thread", "<init>", "starts threads"),
          new Rule("java/lang/Thread", "start", "starts threads"),
          new Rule("java/lang/Thread", "startVirtualThread", "starts threads"),
          new Rule("java/lang/Thread", "ofPlatform", "starts threads"),
          new Rule("java/lang/Thread", "ofVirtual", "starts threads"),
          new Rule("java/util/concurrent/Executors", null, "starts threads"),
          new Rule("java/util/concurrent/ThreadPoolExecutor", null, "starts threads"),
          new Rule("java/util/concurrent/ScheduledThreadPoolExecutor", null, "starts threads"),
          new Rule("java/util/concurrent/ForkJoinPool", null, "starts threads"),
          new Rule("java/util/Timer", null, "starts threads"),
          new Rule("java/lang/reflect/AccessibleObject", "setAccessible", "breaks encapsulation"),
          new Rule(
              "java/lang/reflect/AccessibleObject", "trySetAccessible", "breaks encapsulation"),
          new Rule("java/lang/reflect/Field", "setAccessible", "breaks encapsulation"),
          new Rule("java/lang/reflect/Method", "setAccessible", "breaks encapsulation"),
          new Rule("java/lang/reflect/Constructor", "setAccessible", "breaks encapsulation"),
          new Rule("java/lang/invoke/MethodHandles", "privateLookupIn", "breaks encapsulation"),
          new Rule("sun/misc/Unsafe", null, "uses JVM internals"),
          new Rule("jdk/internal/misc/Unsafe", null, "uses JVM internals"),
          new Rule("java/lang/System", "currentTimeMillis", "reads the wall clock"),
          new Rule("java/lang/System", "nanoTime", "reads the wall clock"),
          new Rule("java/time/Instant", "now", "reads the wall clock"),
          new Rule("java/time/Clock", null, "reads the wall clock"));

  private PluginCodeCheck() {}

  /**
   * What the plugin exploded at {@code pluginDir} must not do, one line each ({@code class: calls
   * member (why)}), sorted; empty when it passes.
   */
  static List<String> problems(Path pluginDir) throws IOException {
    TreeSet<String> found = new TreeSet<>();
    Path classes = pluginDir.resolve("classes");
    if (Files.isDirectory(classes)) {
      try (Stream<Path> s = Files.walk(classes)) {
        for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
          check(classes.relativize(p).toString(), Files.readAllBytes(p), found);
        }
      }
    }
    Path lib = pluginDir.resolve("lib");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> s = Files.list(lib)) {
        for (Path jar : s.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
          try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
              if (e.getName().endsWith(".class")) {
                check(jar.getFileName() + "!" + e.getName(), in.readAllBytes(), found);
              }
            }
          }
        }
      }
    }
    return List.copyOf(found);
  }

  private static void check(String where, byte[] classFile, Set<String> found) throws IOException {
    String cls = where.replace('/', '.').replaceAll("\\.class$", "");
    for (Map.Entry<String, String> ref : ConstantPool.references(classFile)) {
      for (Rule r : RULES) {
        if (r.owner().equals(ref.getKey())
            && (r.member() == null || r.member().equals(ref.getValue()))) {
          String what = r.owner().replace('/', '.') + (r.member() == null ? "" : "." + r.member());
          found.add(cls + " uses " + what + " (" + r.why() + ")");
        }
      }
    }
  }

  /** The class and member references of a class file's constant pool. */
  static final class ConstantPool {
    private ConstantPool() {}

    /** (owner, member) pairs: member references, and classes alone with a null member. */
    static List<Map.Entry<String, String>> references(byte[] classFile) throws IOException {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
      if (in.readInt() != 0xCAFEBABE) {
        throw new IOException("not a class file");
      }
      in.readUnsignedShort();
      in.readUnsignedShort();
      int n = in.readUnsignedShort();
      String[] utf8 = new String[n];
      int[] classNameIndex = new int[n];
      int[][] memberRef = new int[n][];
      int[] nameAndTypeName = new int[n];
      for (int i = 1; i < n; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 3, 4 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          case 7 -> classNameIndex[i] = in.readUnsignedShort();
          case 8, 16, 19, 20 -> in.readUnsignedShort();
          case 9, 10, 11 ->
              memberRef[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 12 -> {
            nameAndTypeName[i] = in.readUnsignedShort();
            in.readUnsignedShort();
          }
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          case 17, 18 -> in.readInt();
          default -> throw new IOException("unknown constant pool tag " + tag);
        }
      }
      List<Map.Entry<String, String>> out = new ArrayList<>();
      for (int i = 1; i < n; i++) {
        if (classNameIndex[i] != 0) {
          out.add(new java.util.AbstractMap.SimpleEntry<>(utf8[classNameIndex[i]], null));
        }
        if (memberRef[i] != null) {
          String owner = utf8[classNameIndex[memberRef[i][0]]];
          String member = utf8[nameAndTypeName[memberRef[i][1]]];
          out.add(new java.util.AbstractMap.SimpleEntry<>(owner, member));
        }
      }
      return out;
    }
  }
}
