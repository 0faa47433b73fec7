// The contract between web, server and identity. Each subject has its own file; this re-exports them.
export {};
