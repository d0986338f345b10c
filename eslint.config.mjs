// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import formatjs from 'eslint-plugin-formatjs';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.bin/**', 'coverage/**', 'screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['frontends/**/*.{ts,tsx}', 'shared/api-client/**/*.ts', 'shared/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // No hard-coded user-visible text: JSX text and the attributes people read or hear (aria-*, title,
    // placeholder, alt, and our components' label/message/description props) come from the message catalogues.
    // A frontend joins this list once its text is in frontends/<app>/src/i18n; shared/i18n's noHardCodedText test
    // runs this rule in CI over every frontend that has a catalogue.
    files: [
      'frontends/shell/src/**/*.tsx',
      'frontends/chat/src/**/*.tsx',
      'frontends/developer/src/**/*.tsx',
      'frontends/admin/src/**/*.tsx',
      'frontends/marketing/src/**/*.tsx',
      'shared/ui/src/**/*.tsx',
    ],
    ignores: ['**/*.test.*'],
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': [
        'error',
        { props: { include: [['*', '{label,placeholder,title,alt,message,description}']] } },
      ],
    },
  },
);
