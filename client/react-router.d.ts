import 'react-router';

// Types `context` of loaders/actions/middleware as a RouterContextProvider (router-mapping §7).
declare module 'react-router' {
  interface Future {
    v8_middleware: true;
  }
}
