package dev.schedlab.report;

/**
 * One input's part of the page.
 *
 * @param kind run, compare, reproduce or matrix
 * @param title heading
 * @param body the section's HTML (facts, figures, tables)
 * @param json the input JSON the section was made from, embedded in the page
 * @param jsonName file name offered when the embedded JSON is saved
 */
public record Section(String kind, String title, String body, String json, String jsonName) {}
