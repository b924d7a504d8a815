export * from "./zoned-micros.ts";
