/**
 * The model's configuration: immutable records the kernel is built from. The lab's scenario loader
 * produces them from YAML/JSON files; the model never sees a file's form.
 */
package dev.schedlab.engine.config;
