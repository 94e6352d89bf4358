export * from "./load-permission-settings.js";
export * from "./mode-names.js";
export * from "./settings-layers.js";
