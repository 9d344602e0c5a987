import type { CoreModuleFactory } from "../core/core-module.js";
declare const createSstfilterModule: CoreModuleFactory;
export default createSstfilterModule;
