/** The oldest Node (major.minor) every entry point accepts: package.json's engines. */
export declare const REQUIRED_NODE: string;
