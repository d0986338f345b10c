import type { ComponentProps, ComponentType, InputHTMLAttributes, ReactNode } from 'react';
import { TextInput } from '@kasa/ui';
import { FIELD_MAX, type DraftField } from './providerDraft';

/** How each setting is typed: never spell-checked where it is a name, a secret or an address. */
const SETTING_INPUTS: Record<DraftField, InputHTMLAttributes<HTMLInputElement>> = {
  name: { autoComplete: 'off', spellCheck: false },
  apiKey: { type: 'password', autoComplete: 'new-password', spellCheck: false },
  baseURL: { type: 'url', inputMode: 'url', autoComplete: 'off', spellCheck: false },
  model: { autoComplete: 'off', spellCheck: false },
  resourceName: { autoComplete: 'off' },
  region: { autoComplete: 'off' },
};

export type SettingInputProps = Omit<ComponentProps<typeof TextInput>, 'onChange' | 'maxLength'> & {
  /** Which setting it is (`baseURL` for any address, the local model's download too). */
  setting: DraftField;
  onValueChange: (value: string) => void;
};

/**
 * The text input of a provider's setting: left to right in every language, as long as the contract takes it, a key
 * in a password field that password managers do not fill with the person's own password.
 */
export function SettingInput({ setting, onValueChange, ...props }: SettingInputProps) {
  return (
    <TextInput
      {...SETTING_INPUTS[setting]}
      dir="ltr"
      maxLength={FIELD_MAX[setting]}
      {...props}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
}

/** What a field gives its control, to spread onto it: its id, what describes it, and whether it has a problem. */
export interface FieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** How a frontend draws a field: the box around the label and the control, the hint under them, then the problem. */
export interface FieldLook {
  Box: ComponentType<{ children: ReactNode }>;
  Hint: ComponentType<{ id: string; children: ReactNode }>;
  Problem: ComponentType<{ id: string; children: ReactNode }>;
}

export interface LabelledFieldProps {
  /** The control's id; the hint and the problem take `<id>-hint` and `<id>-problem`. */
  id: string;
  label: string;
  hint?: string;
  /** What is wrong with the value, in words; it marks the control invalid. */
  problem?: string;
  /** The control, given what to spread onto it. */
  children: (control: FieldControl) => ReactNode;
}

/** A labelled field around a setting's text input: the field's props, then the input's. */
export type SettingTextFieldProps = Omit<LabelledFieldProps, 'children'> & Omit<SettingInputProps, 'id'>;

/**
 * The fields of a settings form, drawn with a frontend's `look`: `SettingField`, the label, any control, its hint and
 * its problem, tied together for assistive technology (the hint and the problem describe the control); and
 * `SettingTextField`, the same around a setting's text input (SettingInput).
 */
export function settingFields({ Box, Hint, Problem }: FieldLook): {
  SettingField: (props: LabelledFieldProps) => ReactNode;
  SettingTextField: (props: SettingTextFieldProps) => ReactNode;
} {
  function SettingField({ id, label, hint, problem, children }: LabelledFieldProps) {
    const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
    return (
      <Box>
        <label htmlFor={id}>{label}</label>
        {children({ id, 'aria-describedby': describedBy || undefined, 'aria-invalid': problem ? true : undefined })}
        {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
        {problem ? <Problem id={`${id}-problem`}>{problem}</Problem> : null}
      </Box>
    );
  }
  function SettingTextField({ id, label, hint, problem, ...input }: SettingTextFieldProps) {
    return (
      <SettingField id={id} label={label} hint={hint} problem={problem}>
        {(control) => <SettingInput {...control} {...input} />}
      </SettingField>
    );
  }
  return { SettingField, SettingTextField };
}
