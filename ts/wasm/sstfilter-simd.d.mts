import type { CoreModuleFactory } from "../core-module.js";
declare const createSstfilterModule: CoreModuleFactory;
export default createSstfilterModule;
