/**
 * The five built-in scheduling classes (stop, deadline, rt, fair/EEVDF, idle), written against the
 * public API only and found through {@link java.util.ServiceLoader}.
 */
package dev.schedlab.classes;
