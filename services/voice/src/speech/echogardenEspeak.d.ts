/**
 * The part of `@echogarden/espeak-ng-emscripten` (eSpeak NG compiled to WebAssembly, GPL-3.0; the package ships no
 * types) that espeakWasmCli.ts uses. Only that program, a separate process, ever loads it.
 */
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakVoiceStruct {
    /** 0 past the last voice. */
    readonly ptr: number;
    get_name(): string;
    /** The voice's file, e.g. `bnt/sw`. */
    get_identifier(): string;
    /** Byte `i` of the languages field: (priority byte, language tag, NUL) repeated, ending with a 0 priority. */
    get_languages(i: number): number;
    /** 0 none, 1 male, 2 female. */
    get_gender(): number;
    get_age(): number;
  }

  export interface EspeakWorker {
    get_voices(index: number): EspeakVoiceStruct;
    /** 0 when the voice (a file or name, optionally `+variant`) was found. */
    set_voice(name: string): number;
    get_samplerate(): number;
    /** Synthesizes the text (UTF-8), calling the function pointer with (samples, count, events) per buffer. */
    synth_(text: string, callback: number): void;
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakWorker;
    addFunction(fn: (samples: number, count: number, events: number) => number, signature: string): number;
    removeFunction(pointer: number): void;
    HEAP16: Int16Array;
  }

  const createModule: (options?: Record<string, unknown>) => Promise<EspeakModule>;
  export default createModule;
}
