/** `npx cdk synth|deploy` runs this file (see cdk.json). */
import { createRegistryApp } from "./registry-app.js";

createRegistryApp().app.synth();
