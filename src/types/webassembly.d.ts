// The part of the WebAssembly JavaScript API that src/perceptron/perceptron-wasm.ts uses. Node has it all, but
// TypeScript declares it only in the DOM libraries, which would let browser-only names type-check here.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: object);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
}
