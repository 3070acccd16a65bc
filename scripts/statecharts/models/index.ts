import type { MachineModel } from '../graph';
import { authModel } from './auth.model';
import { checkoutModel } from './checkout.model';
import { placeOrderModel } from './place-order.model';
import { renewalModel } from './renewal.model';
import { resellerModel } from './reseller.model';
import { serviceModel } from './service.model';
import { upsellModel } from './upsell.model';
import { waitingModel } from './waiting.model';

/** Every machine's model; `npm run paths`, `npm run diagrams` and the diagram test iterate it. */
export const allModels: MachineModel[] = [checkoutModel, placeOrderModel, waitingModel, upsellModel, renewalModel, resellerModel, authModel, serviceModel];
