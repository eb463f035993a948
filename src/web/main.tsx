import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { pageNonce } from './csp-nonce';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
const nonce = pageNonce();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} getStyleNonce={() => nonce ?? ''}>
      <App />
    </MantineProvider>
  </StrictMode>,
);
