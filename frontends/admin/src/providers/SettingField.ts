import { settingFields } from '@kasa/ui/aiProviders';
import { FieldProblem, FormField, Hint } from '../ui/controls';

/** The fields of the console's provider forms (label, control, hint and problem), in the console's look. */
export const { SettingField, SettingTextField } = settingFields({ Box: FormField, Hint, Problem: FieldProblem });
