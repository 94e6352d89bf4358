export * from "./tool-capabilities.js";
